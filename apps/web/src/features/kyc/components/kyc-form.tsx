import {
  type KycDocument,
  type KycRejectedDetails,
  kycIdTypes,
  kycSubmissionBodySchema,
  kycSubmitFailedMessage,
  legalNameLengthMax,
} from '@coffer/contracts/kyc';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Card, Group, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Info } from 'lucide-react';
import { useId, useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { idTypeNames, submitKyc } from '../api.ts';
import { DocumentUploadField } from './document-upload-field.tsx';

type Values = {
  legalName: string;
  idType: string | null;
  idNumber: string;
  address: string;
  dateOfBirth: string;
  documentId: string;
};

const emptyValues: Values = {
  legalName: '',
  idType: null,
  idNumber: '',
  address: '',
  dateOfBirth: '',
  documentId: '',
};

/**
 * A rejected submission's fields, as the customer typed them, to correct rather than retype
 * (issue #31 item 10). The document is not among them: see `RetypeNotice`.
 */
function valuesFrom(rejected: KycRejectedDetails | null): Values {
  if (!rejected) return emptyValues;
  return { ...rejected, legalName: rejected.legalName ?? '', documentId: '' };
}

/**
 * Why the document is asked for again while everything else is filled in: each upload
 * belongs to one submission, and a rejected one's file is deleted on the retention clock,
 * so it cannot safely stand behind a new one; and a rejection is most often about the
 * document itself (blurred, cut off, expired).
 */
function RetypeNotice() {
  return (
    <Alert color="blue" icon={<Info size={18} aria-hidden />}>
      <Trans>
        We filled in what you sent last time. Check it against your ID, correct what the reason
        names, and upload your document again: we do not reuse the file of a rejected verification.
      </Trans>
    </Alert>
  );
}

/** The latest birthday an adult can have today, for the date picker's upper bound. */
function latestAdultBirthday(): string {
  const today = new Date();
  today.setUTCFullYear(today.getUTCFullYear() - 18);
  return today.toISOString().slice(0, 10);
}

/**
 * Legal name, ID type, number, address, date of birth and the document, checked as the
 * server checks them; after a rejection, started from what was sent.
 */
export function KycForm({ rejected }: { rejected: KycRejectedDetails | null }) {
  const { t, i18n } = useLingui();
  const idTypeOptions = kycIdTypes.map((idType) => ({
    value: idType,
    label: i18n._(idTypeNames[idType]),
  }));
  const queryClient = useQueryClient();
  const headingId = useId();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: valuesFrom(rejected),
    validate: contractResolver(kycSubmissionBodySchema),
  });
  const submit = useMutation({
    mutationFn: (values: Values) => submitKyc(kycSubmissionBodySchema.parse(values)),
    onSuccess: async () => {
      showSuccessToast(t`Your verification was submitted.`);
      await queryClient.invalidateQueries({ queryKey: ['kyc'] });
    },
    onError: (error) =>
      setFormError(
        showApiErrorOnForm(form, error, { otherFailureMessage: kycSubmitFailedMessage }),
      ),
  });
  const setDocument = (document: KycDocument | null) => {
    form.setFieldValue('documentId', document?.id ?? '');
    form.clearFieldError('documentId');
  };

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        <Trans>Verify your identity</Trans>
      </Title>
      <form
        noValidate
        onSubmit={form.onSubmit((values) => {
          setFormError(null);
          submit.mutate(values);
        })}
      >
        <Stack gap="md" maw={480}>
          {rejected && <RetypeNotice />}
          <FormAlert message={formError} />
          <TextInput
            label={t`Legal name`}
            description={t`Your full name exactly as it is on your ID`}
            required
            maxLength={legalNameLengthMax}
            autoComplete="name"
            {...form.getInputProps('legalName')}
          />
          <ChoiceSelect
            label={t`ID type`}
            placeholder={t`Choose the type of ID`}
            data={idTypeOptions}
            required
            {...form.getInputProps('idType')}
          />
          <TextInput
            label={t`ID number`}
            required
            maxLength={50}
            autoComplete="off"
            {...form.getInputProps('idNumber')}
          />
          <Textarea
            label={t`Address`}
            required
            autosize
            minRows={2}
            maxLength={300}
            autoComplete="street-address"
            {...form.getInputProps('address')}
          />
          <TextInput
            label={t`Date of birth`}
            description={t`You must be 18 or older`}
            type="date"
            required
            max={latestAdultBirthday()}
            autoComplete="bday"
            {...form.getInputProps('dateOfBirth')}
          />
          <DocumentUploadField
            error={form.errors.documentId as string | undefined}
            onUploaded={setDocument}
          />
          <Group>
            <BusyButton isBusy={submit.isPending} busyLabel={t`Submitting...`}>
              <Trans>Submit KYC</Trans>
            </BusyButton>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
