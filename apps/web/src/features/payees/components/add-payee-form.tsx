import { billCategories } from '@coffer/contracts/bills';
import type { PasskeyAssertion } from '@coffer/contracts/passkey-assertion';
import {
  type PayeeKind,
  type PayeeTarget,
  payeeKinds,
  payeeNicknameLengthMax,
  payeeNicknameSchema,
  payeeTargetSchema,
} from '@coffer/contracts/payees';
import { cryptoCoinLabels, cryptoCoins, payoutMethods } from '@coffer/contracts/payouts';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { type UseFormReturnType, useForm } from '@mantine/form';
import { useId, useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { type ApiError, errorMessage } from '../../../lib/api-client.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { StepUpCodeField } from '../../step-up/index.ts';
import { newIdempotencyKey, useAddPayee } from '../api.ts';
import {
  billCategoryMessages,
  labelText,
  payeeKindMessages,
  payoutMethodMessages,
  useDescribePayeeTarget,
} from './payee-words.ts';

/** Every kind's fields side by side: switching kinds keeps what was typed. */
type Values = {
  nickname: string;
  kind: PayeeKind;
  recipient: string;
  category: string | null;
  billerReference: string;
  method: string;
  holderName: string;
  bankName: string;
  accountNumber: string;
  email: string;
  emailOrCashtag: string;
  coin: string;
  address: string;
};

const initialValues: Values = {
  nickname: '',
  kind: 'coffer',
  recipient: '',
  category: null,
  billerReference: '',
  method: 'bank',
  holderName: '',
  bankName: '',
  accountNumber: '',
  email: '',
  emailOrCashtag: '',
  coin: 'BTC',
  address: '',
};

const choicesOf = <T extends string>(
  values: readonly T[],
  labels: Record<T, MessageDescriptor | string>,
  i18n: I18n,
) => values.map((value) => ({ value, label: labelText(labels[value], i18n) }));

/** The target the values describe, in the shape of the shared schema (it checks it). */
function targetOf(values: Values): unknown {
  switch (values.kind) {
    case 'coffer':
      return { kind: 'coffer', recipient: values.recipient };
    case 'bill':
      return {
        kind: 'bill',
        category: values.category,
        billerReference: values.billerReference,
      };
    case 'payout': {
      const { method, holderName, bankName, accountNumber, email, emailOrCashtag } = values;
      const destination =
        method === 'bank'
          ? { method, holderName, bankName, accountNumber }
          : method === 'paypal'
            ? { method, email, holderName }
            : method === 'cashapp'
              ? { method, emailOrCashtag, holderName }
              : { method, coin: values.coin, address: values.address };
      return { kind: 'payout', destination };
    }
  }
}

/** A schema issue's path ("target.destination.bankName") as the form's field ("bankName"). */
function fieldOf(path: readonly PropertyKey[]): string {
  return String(path.at(-1) ?? 'nickname');
}

function TargetFields({ form }: { form: UseFormReturnType<Values> }) {
  const { t, i18n } = useLingui();
  const input = (field: keyof Values) => form.getInputProps(field);
  switch (form.values.kind) {
    case 'coffer':
      return (
        <TextInput
          label={t`Recipient`}
          description={t`Their 10-digit account number or their email`}
          autoComplete="off"
          spellCheck={false}
          required
          maxLength={254}
          {...input('recipient')}
        />
      );
    case 'bill':
      return (
        <>
          <ChoiceSelect
            label={t`Bill`}
            placeholder={t`Select a bill`}
            data={choicesOf(billCategories, billCategoryMessages, i18n)}
            required
            {...input('category')}
          />
          <TextInput
            label={t`Biller reference`}
            description={t`Your customer number, as printed on the bill`}
            autoComplete="off"
            required
            maxLength={40}
            {...input('billerReference')}
          />
        </>
      );
    case 'payout':
      return (
        <>
          <ChoiceSelect
            label={t`Method`}
            placeholder={t`Select a method`}
            data={choicesOf(payoutMethods, payoutMethodMessages, i18n)}
            required
            {...input('method')}
          />
          {form.values.method === 'crypto' ? (
            <>
              <ChoiceSelect
                label={t`Coin`}
                placeholder={t`Select a coin`}
                data={choicesOf(cryptoCoins, cryptoCoinLabels, i18n)}
                required
                {...input('coin')}
              />
              <TextInput label={t`Wallet address`} required maxLength={100} {...input('address')} />
            </>
          ) : (
            <>
              {form.values.method === 'bank' && (
                <>
                  <TextInput label={t`Bank name`} required maxLength={100} {...input('bankName')} />
                  <TextInput
                    label={t`Account number or IBAN`}
                    autoComplete="off"
                    required
                    maxLength={50}
                    {...input('accountNumber')}
                  />
                </>
              )}
              {form.values.method === 'paypal' && (
                <TextInput label={t`PayPal email`} required maxLength={254} {...input('email')} />
              )}
              {form.values.method === 'cashapp' && (
                <TextInput
                  label={t`Email or $cashtag`}
                  required
                  maxLength={254}
                  {...input('emailOrCashtag')}
                />
              )}
              <TextInput
                label={t`Account holder name`}
                required
                maxLength={100}
                {...input('holderName')}
              />
            </>
          )}
        </>
      );
  }
}

type Checked = { nickname: string; target: PayeeTarget };

/** The second step: the code confirming this payee, then saving it. */
function ConfirmPayeeStep({
  checked,
  onBack,
  onSaved,
}: {
  checked: Checked;
  onBack: (refusal: string | null) => void;
  onSaved: () => void;
}) {
  const { t } = useLingui();
  const describePayeeTarget = useDescribePayeeTarget();
  const add = useAddPayee();
  const [idempotencyKey] = useState(newIdempotencyKey);
  const [stepUpCode, setStepUpCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  /** With the typed code, or with a passkey's answer instead of it. */
  const save = (stepUpPasskey?: PasskeyAssertion) => {
    setCodeError(undefined);
    setFailure(null);
    const stepUp = stepUpPasskey ? { stepUpPasskey } : { stepUpCode: stepUpCode.trim() };
    add.mutate(
      { body: { ...checked, ...stepUp }, idempotencyKey },
      {
        onSuccess: (saved) => {
          const { nickname } = saved;
          showSuccessToast(t`Payee "${nickname}" saved`);
          onSaved();
        },
        onError: (error) => {
          const code = (error as ApiError).code;
          if (
            code === 'wrong_code' ||
            code === 'passkey_refused' ||
            code === 'step_up_required' ||
            code === 'validation_failed'
          ) {
            setCodeError((error as ApiError).fields?.stepUpCode ?? errorMessage(error));
          } else setFailure(errorMessage(error));
        },
      },
    );
  };
  const { nickname } = checked;
  const target = describePayeeTarget(checked.target);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <Stack gap="md">
        <FormAlert message={failure} />
        <Text>
          <Trans>
            Adding <strong>{nickname}</strong>: {target}
          </Trans>
        </Text>
        <StepUpCodeField
          intended={{ purpose: 'payee', target: checked.target }}
          value={stepUpCode}
          onChange={setStepUpCode}
          onRefused={(refusal: ApiError) => onBack(refusal.message)}
          error={codeError}
          onPasskey={(answer) => save(answer)}
        />
        <Group justify="space-between">
          <Button variant="default" type="button" onClick={() => onBack(null)}>
            <Trans>Back</Trans>
          </Button>
          <BusyButton isBusy={add.isPending} busyLabel={t`Saving...`}>
            <Trans>Save payee</Trans>
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Add a payee: what it pays (the fields of Quick Pay, Pay Bills or Withdraw) and a
 * nickname; then the step-up code, which confirms this very payee.
 */
export function AddPayeeForm() {
  const { t, i18n } = useLingui();
  const headingId = useId();
  const [checked, setChecked] = useState<Checked | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<Values>({ mode: 'controlled', initialValues });

  const check = (values: Values) => {
    setRefusal(null);
    const nickname = payeeNicknameSchema.safeParse(values.nickname);
    const target = payeeTargetSchema.safeParse(targetOf(values));
    const errors: Record<string, string> = {};
    if (!nickname.success) errors.nickname = nickname.error.issues[0]?.message ?? '';
    if (!target.success) {
      for (const issue of target.error.issues) errors[fieldOf(issue.path)] ??= issue.message;
    }
    if (!nickname.success || !target.success) {
      form.setErrors(errors);
      return;
    }
    setChecked({ nickname: nickname.data, target: target.data });
  };

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        <Trans>Add a payee</Trans>
      </Title>
      {checked ? (
        <ConfirmPayeeStep
          checked={checked}
          onBack={(message) => {
            setChecked(null);
            setRefusal(message);
          }}
          onSaved={() => {
            setChecked(null);
            form.setValues(initialValues);
          }}
        />
      ) : (
        <form noValidate onSubmit={form.onSubmit(check)}>
          <Stack gap="md" maw={480}>
            <FormAlert message={refusal} />
            <ChoiceSelect
              label={t`Payee type`}
              placeholder={t`Select a type`}
              data={choicesOf(payeeKinds, payeeKindMessages, i18n)}
              required
              {...form.getInputProps('kind')}
            />
            <TargetFields form={form} />
            <TextInput
              label={t`Nickname`}
              description={t`How the payee is shown to you`}
              required
              maxLength={payeeNicknameLengthMax}
              {...form.getInputProps('nickname')}
            />
            <Group>
              <Button type="submit">
                <Trans>Continue</Trans>
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Card>
  );
}
