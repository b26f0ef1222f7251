import { NICHES } from "@elo/shared";

/** Modalities under each niche (category). */
export const MODALITIES_BY_NICHE: Record<(typeof NICHES)[number], readonly string[]> = {
  "Ed. Básica": ["Educação Infantil", "Ensino Fundamental I", "Ensino Fundamental II", "Ensino Médio", "Ensino Integral"],
  Idiomas: ["Inglês", "Espanhol", "Francês", "Alemão", "Italiano", "Mandarim", "Japonês", "Libras"],
  Clubes: ["Futebol", "Natação", "Vôlei", "Basquete", "Judô", "Jiu-jitsu", "Ginástica", "Tênis", "Balé", "Dança"],
  Tecnologia: ["Programação", "Robótica", "Design Digital", "Games", "Informática"],
  Outros: ["Música", "Artes Plásticas", "Teatro", "Reforço Escolar", "Xadrez", "Culinária", "Pré-vestibular"],
};

export const POSITIONS = [
  "Diretor(a)",
  "Vice-diretor(a)",
  "Coordenador(a) pedagógico(a)",
  "Coordenador(a) administrativo(a)",
  "Secretário(a)",
  "Gerente comercial",
  "Proprietário(a)",
  "Professor(a)",
  "Outro",
] as const;

export const RELATIONSHIP_TYPES = ["Mãe", "Pai", "Avó/Avô", "Tia/Tio", "Irmã/Irmão", "Madrasta/Padrasto", "Responsável legal", "Outro"] as const;
