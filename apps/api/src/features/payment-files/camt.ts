import type { CurrencyCode } from '@coffer/contracts/currencies';
import { statementEntriesMax } from '@coffer/contracts/payment-files';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { electronicFormatIBAN } from 'ibantools';
import { decoded, formulaStart, positiveAmount, refuse } from '../../platform/file-checks.ts';

/** camt.053 of any version: the bank-to-customer statement (ISO 20022). */
const camt053Namespace = /^urn:iso:std:iso:20022:tech:xsd:camt\.053\.001\.\d{2}$/;

/** One booked movement of the institution's account, as the statement tells it. */
export type StatementTransaction = {
  /** Where the file says it, for the messages that name it. */
  place: string;
  isCredit: boolean;
  amountMinor: bigint;
  currency: CurrencyCode;
  bookingDate: string | null;
  bankReference: string | null;
  endToEndId: string | null;
  /** The payment information or message id of a batch booked as one entry. */
  batchReference: string | null;
  remittance: string | null;
  counterparty: string | null;
};

export type ParsedStatement = { reference: string; transactions: StatementTransaction[] };

type XmlNode = { [name: string]: unknown };

const metaData = XMLParser.getMetaDataSymbol() as unknown as string;
const arrayElements = new Set(['Stmt', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd', 'CdtrRefInf']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  captureMetaData: true,
  // Only XML's own five entities: a statement declares none of its own (no DOCTYPE).
  processEntities: true,
  isArray: (name) => arrayElements.has(name),
});

/** Turns offsets in the text into "line L, column C", as an editor counts them. */
class Places {
  private readonly lineStarts: number[] = [0];

  constructor(text: string) {
    for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
      this.lineStarts.push(index + 1);
    }
  }

  at(offset: number): string {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if ((this.lineStarts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return `line ${low + 1}, column ${offset - (this.lineStarts[low] ?? 0) + 1}`;
  }

  of(node: unknown): string {
    // A missing element (a prefixed Document, say) is placed at the file's start.
    if (typeof node !== 'object' || node === null) return 'line 1, column 1';
    const start = (node as Record<string, { startIndex?: number } | undefined>)[metaData]
      ?.startIndex;
    return start === undefined ? 'line 1, column 1' : this.at(start);
  }
}

function child(node: unknown, ...path: string[]): unknown {
  let current = node;
  for (const name of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    const next: unknown = (current as XmlNode)[name];
    current = Array.isArray(next) ? next[0] : next;
  }
  return current;
}

function children(node: unknown, name: string): unknown[] {
  if (typeof node !== 'object' || node === null) return [];
  const found = (node as XmlNode)[name];
  return Array.isArray(found) ? found : found === undefined ? [] : [found];
}

/**
 * The one `name` element of `node`, refusing it repeated where the standard allows one:
 * a second IBAN, amount or credit/debit mark would otherwise be silently ignored.
 */
function only(node: unknown, name: string, place: string): unknown {
  const found = children(node, name);
  if (found.length > 1)
    refuse(place, `${name} appears ${found.length} times; the standard allows one`);
  return found[0];
}

/** An element's text: a plain string, or `#text` of one with attributes. */
function textOf(node: unknown): string | undefined {
  if (typeof node === 'string') return node;
  if (typeof node === 'object' && node !== null) {
    const text = (node as XmlNode)['#text'];
    return typeof text === 'string' ? text : undefined;
  }
  return undefined;
}

/** Free text of at most `lengthMax` characters (the standard's Max35Text, Max140Text…). */
function freeText(value: unknown, lengthMax: number, place: string, name: string): string | null {
  const text = textOf(value);
  if (text === undefined || text === '') return null;
  if (text.length > lengthMax) refuse(place, `${name} is longer than ${lengthMax} characters`);
  if (formulaStart.test(text)) {
    refuse(place, `${name} "${text.slice(0, 20)}" starts like a spreadsheet formula`);
  }
  return text;
}

function amountOf(node: unknown, place: string): { amountMinor: bigint; currency: CurrencyCode } {
  const currency = typeof node === 'object' && node !== null ? (node as XmlNode)['@Ccy'] : null;
  const text = textOf(node);
  if (typeof currency !== 'string' || text === undefined) {
    refuse(place, 'the entry has no amount with a currency (Amt Ccy="…")');
  }
  return positiveAmount(text, currency, place);
}

function dateOf(entry: unknown): string | null {
  const booking = child(entry, 'BookgDt');
  const text = textOf(child(booking, 'Dt')) ?? textOf(child(booking, 'DtTm'));
  return text && /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : null;
}

function remittanceOf(details: unknown, place: string): string | null {
  const information = child(details, 'RmtInf');
  const parts = [
    ...children(information, 'Ustrd').map((line) => freeText(line, 140, place, 'Ustrd')),
    ...children(child(information, 'Strd'), 'CdtrRefInf').map((reference) =>
      freeText(child(reference, 'Ref'), 35, place, 'Ref'),
    ),
  ].filter((part) => part !== null);
  return parts.length > 0 ? parts.join(' ') : null;
}

/** The other party's name: the debtor of a credit, the creditor of a debit. */
function counterpartyOf(details: unknown, isCredit: boolean, place: string): string | null {
  const party = child(details, 'RltdPties', isCredit ? 'Dbtr' : 'Cdtr');
  return freeText(child(party, 'Nm') ?? child(party, 'Pty', 'Nm'), 140, place, 'Nm');
}

/** The transactions of one entry: each of its TxDtls, or the entry itself when it has none. */
function transactionsOf(entry: unknown, places: Places): StatementTransaction[] {
  const place = places.of(entry);
  const indicator = textOf(only(entry, 'CdtDbtInd', place));
  if (indicator !== 'CRDT' && indicator !== 'DBIT') {
    refuse(place, 'CdtDbtInd must be CRDT or DBIT');
  }
  const isCredit = indicator === 'CRDT';
  const entryAmountNode = only(entry, 'Amt', place);
  const entryAmount = amountOf(entryAmountNode, places.of(entryAmountNode));
  const entryDetails = child(entry, 'NtryDtls');
  const details = children(entryDetails, 'TxDtls');
  const batch = child(entryDetails, 'Btch');
  const common = {
    isCredit,
    bookingDate: dateOf(entry),
    bankReference: freeText(child(entry, 'AcctSvcrRef'), 35, place, 'AcctSvcrRef'),
  };
  if (details.length === 0) {
    return [
      {
        ...common,
        ...entryAmount,
        place,
        endToEndId: null,
        batchReference:
          freeText(child(batch, 'PmtInfId'), 35, place, 'PmtInfId') ??
          freeText(child(batch, 'MsgId'), 35, place, 'MsgId'),
        remittance: freeText(child(entry, 'AddtlNtryInf'), 500, place, 'AddtlNtryInf'),
        counterparty: null,
      },
    ];
  }
  return details.map((transaction) => {
    const at = places.of(transaction);
    const ownAmount = child(transaction, 'Amt') ?? child(transaction, 'AmtDtls', 'TxAmt', 'Amt');
    if (ownAmount === undefined && details.length > 1) {
      refuse(at, 'each of several TxDtls of one entry needs its own amount');
    }
    const amount =
      ownAmount === undefined ? entryAmount : amountOf(ownAmount, places.of(ownAmount));
    const references = child(transaction, 'Refs');
    const endToEndId = freeText(only(references, 'EndToEndId', at), 35, at, 'EndToEndId');
    return {
      ...common,
      ...amount,
      place: at,
      bankReference:
        freeText(child(references, 'AcctSvcrRef'), 35, at, 'AcctSvcrRef') ?? common.bankReference,
      endToEndId: endToEndId === 'NOTPROVIDED' ? null : endToEndId,
      batchReference:
        freeText(child(references, 'PmtInfId'), 35, at, 'PmtInfId') ??
        freeText(child(references, 'MsgId'), 35, at, 'MsgId'),
      remittance: remittanceOf(transaction, at),
      counterparty: counterpartyOf(transaction, isCredit, at),
    };
  });
}

/**
 * Refuses what a camt.053 of one namespace never holds but a parser reading only the
 * names it knows would pass over or misread: an element of another namespace (prefixed,
 * or one that declares its own default namespace, whose `<Amt>` is not ISO's) and a
 * processing instruction inside the document. Walks the tree without recursion; the
 * parser has already bounded its depth.
 */
function refuseForeignMarkup(document: unknown, namespace: string, places: Places): void {
  const pending: unknown[] = [document];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (typeof node !== 'object' || node === null) continue;
    for (const [name, value] of Object.entries(node as XmlNode)) {
      if (name.startsWith('?')) {
        refuse(
          places.of(node),
          `a processing instruction (<${name}…?>) has no place in a statement`,
        );
      }
      if (name === '@xmlns' && value !== namespace) {
        refuse(places.of(node), `an element in another namespace (${String(value).slice(0, 80)})`);
      }
      const elements = Array.isArray(value) ? value : [value];
      if (name.includes(':') && !name.startsWith('@')) {
        refuse(places.of(elements[0]), `an element in another namespace (<${name.slice(0, 40)}>)`);
      }
      for (const element of elements) pending.push(element);
    }
  }
}

/**
 * The parsed document. The parser throws on what well-formed XML may still hold but it
 * will not build (nesting deeper than its limit, an element named __proto__): that is a
 * refused file, not a server error.
 */
function parsedXml(text: string): unknown {
  try {
    return parser.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message.slice(0, 200) : String(error);
    return refuse('line 1, column 1', `the XML cannot be read (${reason})`);
  }
}

/**
 * Reads a camt.053 statement of the institution's own account (`ownIban`), checking its
 * structure on the way: well-formed XML without a DOCTYPE, the camt.053 namespace, every
 * statement of that account, at most `statementEntriesMax` entries, each a credit or debit
 * with an amount in a known currency and no more decimals than it has, and no text that
 * a spreadsheet would run as a formula. Any refusal names the line and column and imports
 * nothing (AppError `file_refused`).
 */
export function parseCamt053(bytes: Buffer, ownIban: string): ParsedStatement {
  const text = decoded(bytes);
  const places = new Places(text);
  const doctype = text.search(/<!DOCTYPE/i);
  if (doctype !== -1) refuse(places.at(doctype), 'a statement has no DOCTYPE');
  const wellFormed = XMLValidator.validate(text);
  if (wellFormed !== true) {
    const { line, col, msg } = wellFormed.err;
    refuse(`line ${line}, column ${col}`, `not well-formed XML (${msg})`);
  }
  const parsed = parsedXml(text);
  // XML has one root element; the validator lets a second through, which we would ignore.
  const roots = Object.keys(parsed as XmlNode).filter((name) => !name.startsWith('?'));
  const documents = (parsed as XmlNode).Document;
  if (roots.length !== 1 || Array.isArray(documents)) {
    refuse('line 1, column 1', 'not well-formed XML (a file has exactly one root element)');
  }
  const document = child(parsed, 'Document');
  const namespace = textOf(child(document, '@xmlns'));
  if (namespace === undefined || !camt053Namespace.test(namespace)) {
    refuse(
      places.of(document),
      'not a camt.053 statement (its Document must be in the namespace urn:iso:std:iso:20022:tech:xsd:camt.053.001.xx)',
    );
  }
  refuseForeignMarkup(document, namespace, places);
  const message = child(document, 'BkToCstmrStmt');
  const header = only(message, 'GrpHdr', places.of(message));
  const reference = freeText(
    only(header, 'MsgId', places.of(header)),
    35,
    places.of(message),
    'MsgId',
  );
  const statements = children(message, 'Stmt');
  if (!reference || statements.length === 0) {
    refuse(places.of(message ?? document), 'a camt.053 statement needs GrpHdr/MsgId and a Stmt');
  }
  const transactions: StatementTransaction[] = [];
  let entryCount = 0;
  for (const statement of statements) {
    const account = only(statement, 'Acct', places.of(statement));
    const iban = textOf(only(child(account, 'Id'), 'IBAN', places.of(account ?? statement)));
    if (electronicFormatIBAN(iban ?? '') !== ownIban) {
      refuse(
        places.of(account ?? statement),
        `this statement is of account ${iban ?? '(no IBAN)'}, not the institution's own (COFFER_BANK_IBAN)`,
      );
    }
    for (const entry of children(statement, 'Ntry')) {
      entryCount += 1;
      if (entryCount > statementEntriesMax) {
        refuse(places.of(entry), `a statement holds at most ${statementEntriesMax} entries`);
      }
      transactions.push(...transactionsOf(entry, places));
    }
  }
  return { reference, transactions };
}
