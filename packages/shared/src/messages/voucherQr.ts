/** The voucher's QR code (decision 140): on the confirmation page, /painel-pais, the e-mail, and the desk's reader. */
export const voucherQrMessages = {
  alt: (code: string) => `QR code do voucher ${code}`,
  hint: "Na secretaria, a escola pode ler este QR code ou digitar o código do voucher.",
  scan: "Ler QR code",
  scanTitle: "Ler QR code do voucher",
  scanHint: "Aponte a câmera para o QR code do voucher. A leitura é automática.",
  opening: "Abrindo a câmera…",
  close: "Fechar",
  tryAgain: "Tentar de novo",
  noCamera: "Nenhuma câmera encontrada neste aparelho. Digite o código do voucher.",
  denied: "O acesso à câmera foi negado. Permita o uso da câmera nas configurações do navegador ou digite o código do voucher.",
  cameraFailed: "Não foi possível abrir a câmera. Feche outros aplicativos que a estejam usando ou digite o código do voucher.",
  notVoucher: "Este QR code não é de um voucher do Elo Escolar.",
};
