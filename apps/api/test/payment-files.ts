// camt.053 statements as a bank writes them, for the tests of payment files.

export const sandboxBankIban = 'DE89370400440532013000';

export type TestStatementEntry = {
  amount: string;
  currency?: string;
  isCredit: boolean;
  endToEndId?: string;
  remittance?: string;
  counterparty?: string;
  bankReference?: string;
};

function escaped(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function entryXml(entry: TestStatementEntry, index: number): string {
  const party = entry.isCredit ? 'Dbtr' : 'Cdtr';
  return `
      <Ntry>
        <Amt Ccy="${entry.currency ?? 'EUR'}">${entry.amount}</Amt>
        <CdtDbtInd>${entry.isCredit ? 'CRDT' : 'DBIT'}</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>2026-11-27</Dt></BookgDt>
        <AcctSvcrRef>${escaped(entry.bankReference ?? `BANKREF${index}`)}</AcctSvcrRef>
        <NtryDtls>
          <TxDtls>
            <Refs><EndToEndId>${escaped(entry.endToEndId ?? 'NOTPROVIDED')}</EndToEndId></Refs>
            <RltdPties><${party}><Pty><Nm>${escaped(entry.counterparty ?? 'Someone')}</Nm></Pty></${party}></RltdPties>
            ${entry.remittance === undefined ? '' : `<RmtInf><Ustrd>${escaped(entry.remittance)}</Ustrd></RmtInf>`}
          </TxDtls>
        </NtryDtls>
      </Ntry>`;
}

/** A camt.053.001.08 statement of `iban` holding `entries`, under the message id `reference`. */
export function camt053(
  entries: TestStatementEntry[],
  options: { iban?: string; reference?: string; namespace?: string } = {},
): string {
  const namespace = options.namespace ?? 'urn:iso:std:iso:20022:tech:xsd:camt.053.001.08';
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="${namespace}">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>${options.reference ?? `STMT${Date.now()}${Math.floor(Math.random() * 1e6)}`}</MsgId><CreDtTm>2026-11-27T23:00:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>S1</Id>
      <CreDtTm>2026-11-27T23:00:00</CreDtTm>
      <Acct><Id><IBAN>${options.iban ?? sandboxBankIban}</IBAN></Id></Acct>${entries.map(entryXml).join('')}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;
}
