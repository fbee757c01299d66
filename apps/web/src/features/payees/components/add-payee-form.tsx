import { billCategories, billCategoryLabels } from '@coffer/contracts/bills';
import type { PasskeyAssertion } from '@coffer/contracts/passkey-assertion';
import {
  describePayeeTarget,
  type PayeeKind,
  type PayeeTarget,
  payeeKindLabels,
  payeeKinds,
  payeeNicknameLengthMax,
  payeeNicknameSchema,
  payeeTargetSchema,
} from '@coffer/contracts/payees';
import {
  cryptoCoinLabels,
  cryptoCoins,
  payoutMethodLabels,
  payoutMethods,
} from '@coffer/contracts/payouts';
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

const choicesOf = <T extends string>(values: readonly T[], labels: Record<T, string>) =>
  values.map((value) => ({ value, label: labels[value] }));

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
  const input = (field: keyof Values) => form.getInputProps(field);
  switch (form.values.kind) {
    case 'coffer':
      return (
        <TextInput
          label="Recipient"
          description="Their 10-digit account number or their email"
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
            label="Bill"
            placeholder="Select a bill"
            data={choicesOf(billCategories, billCategoryLabels)}
            required
            {...input('category')}
          />
          <TextInput
            label="Biller reference"
            description="Your customer number, as printed on the bill"
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
            label="Method"
            placeholder="Select a method"
            data={choicesOf(payoutMethods, payoutMethodLabels)}
            required
            {...input('method')}
          />
          {form.values.method === 'crypto' ? (
            <>
              <ChoiceSelect
                label="Coin"
                placeholder="Select a coin"
                data={choicesOf(cryptoCoins, cryptoCoinLabels)}
                required
                {...input('coin')}
              />
              <TextInput label="Wallet address" required maxLength={100} {...input('address')} />
            </>
          ) : (
            <>
              {form.values.method === 'bank' && (
                <>
                  <TextInput label="Bank name" required maxLength={100} {...input('bankName')} />
                  <TextInput
                    label="Account number or IBAN"
                    autoComplete="off"
                    required
                    maxLength={50}
                    {...input('accountNumber')}
                  />
                </>
              )}
              {form.values.method === 'paypal' && (
                <TextInput label="PayPal email" required maxLength={254} {...input('email')} />
              )}
              {form.values.method === 'cashapp' && (
                <TextInput
                  label="Email or $cashtag"
                  required
                  maxLength={254}
                  {...input('emailOrCashtag')}
                />
              )}
              <TextInput
                label="Account holder name"
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
          showSuccessToast(`Payee "${saved.nickname}" saved`);
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
          Adding <strong>{checked.nickname}</strong>: {describePayeeTarget(checked.target)}
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
            Back
          </Button>
          <BusyButton isBusy={add.isPending} busyLabel="Saving...">
            Save payee
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
        Add a payee
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
              label="Payee type"
              placeholder="Select a type"
              data={choicesOf(payeeKinds, payeeKindLabels)}
              required
              {...form.getInputProps('kind')}
            />
            <TargetFields form={form} />
            <TextInput
              label="Nickname"
              description="How the payee is shown to you"
              required
              maxLength={payeeNicknameLengthMax}
              {...form.getInputProps('nickname')}
            />
            <Group>
              <Button type="submit">Continue</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Card>
  );
}
