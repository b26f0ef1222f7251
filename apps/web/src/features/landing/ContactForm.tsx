import { Button, Card, Select, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from "@mantine/core";
import { schemaResolver, useForm } from "@mantine/form";
import { CONTACT_SUBJECTS, contactInput, LIMITS, landingMessages, privacyMessages } from "@elo/shared";
import { useMutation } from "@tanstack/react-query";
import { fieldErrors, notifyFailure, notifyOk } from "../../lib/notify";
import { trpc } from "../../lib/trpc";

/** The contact form of /para-escolas: validated here and on the server, stored and e-mailed. */
export function ContactForm() {
  const form = useForm({
    mode: "controlled",
    initialValues: { subject: "", name: "", email: "", message: "" },
    validate: schemaResolver(contactInput, { sync: true }),
  });
  const send = useMutation(
    trpc.contact.send.mutationOptions({
      onSuccess: () => {
        notifyOk({ title: privacyMessages.contactSent, description: privacyMessages.contactSentDescription });
        form.reset();
      },
      onError: (error) => {
        form.setErrors(fieldErrors(error));
        notifyFailure(error, { title: privacyMessages.contactErrorTitle, description: privacyMessages.contactErrorDescription });
      },
    }),
  );

  return (
    <Card withBorder radius="lg" padding="xl" shadow="xs" component="section" aria-labelledby="contact-title" id="contato">
      <Stack gap="md">
        <div>
          <Title order={2} id="contact-title">
            {landingMessages.contactTitle}
          </Title>
          <Text c="dimmed">{landingMessages.contactText}</Text>
        </div>
        <form noValidate onSubmit={form.onSubmit((values) => send.mutate(contactInput.parse(values)))}>
          <Stack gap="md">
            <Select
              label={landingMessages.contactSubject}
              placeholder={landingMessages.contactSubjectPlaceholder}
              data={[...CONTACT_SUBJECTS]}
              withAsterisk
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
              key={form.key("subject")}
              {...form.getInputProps("subject")}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label={landingMessages.contactName} withAsterisk maxLength={LIMITS.nameMax} autoComplete="name" key={form.key("name")} {...form.getInputProps("name")} />
              <TextInput label={landingMessages.contactEmail} type="email" withAsterisk maxLength={LIMITS.emailMax} autoComplete="email" key={form.key("email")} {...form.getInputProps("email")} />
            </SimpleGrid>
            <Textarea
              label={landingMessages.contactMessage}
              withAsterisk
              autosize
              minRows={4}
              maxLength={LIMITS.contactMessageMax}
              description={`${form.values.message.length}/${LIMITS.contactMessageMax}`}
              key={form.key("message")}
              {...form.getInputProps("message")}
            />
            <Button type="submit" loading={send.isPending} w={{ base: "100%", sm: "auto" }} style={{ alignSelf: "flex-end" }}>
              {landingMessages.contactSend}
            </Button>
          </Stack>
        </form>
      </Stack>
    </Card>
  );
}
