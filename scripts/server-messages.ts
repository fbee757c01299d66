// Collects the English messages the API says (ADR 055): the error codes' messages, the
// contracts' refusals (zod schemas and the checks beside them) and the API's own text
// (refusals, emails, statements). English is the message id, gettext style; a value
// written into a message is an ICU placeholder named after it (`{amount}`).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export type SourceMessage = { id: string; origins: string[] };

// Where this code keeps what it says: `message:`/`error:` (refusals), `subject:`/`text:`
// (emails and notifications), and constants, tables and functions named for messages.
const messageProperty = /^(message|error|subject|text)$/;
const messageName = /(Message|Messages)$|^(tooLong|entryKindLabels)$/;

function isSentence(text: string): boolean {
  // A message starts with a letter, digit or a placeholder and has a word in it; codes
  // ('not_found'), SQL and log lines (lower-case by this code's habit) are not messages.
  const words = text.replaceAll(/\{\w+\}/g, '');
  return (
    /^[\p{Lu}\d{"“(]/u.test(text) &&
    /\p{L}{2}/u.test(words) &&
    !/^[A-Z_]+$/.test(text) &&
    !/^(SELECT|INSERT|UPDATE|DELETE|WITH)\b/.test(text)
  );
}

function placeholderName(expression: ts.Expression): string | null {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  return null;
}

/** The message a literal spells, ICU placeholders for its `${values}`; null when not one. */
function textOf(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    let text = node.head.text;
    for (const span of node.templateSpans) {
      const name = placeholderName(span.expression);
      if (!name) return null;
      text += `{${name}}${span.literal.text}`;
    }
    return text;
  }
  if (ts.isParenthesizedExpression(node)) return textOf(node.expression);
  return null;
}

function nameOf(node: ts.Node | undefined): string | null {
  if (!node) return null;
  if (
    ts.isVariableDeclaration(node) ||
    ts.isFunctionDeclaration(node) ||
    ts.isPropertyAssignment(node)
  )
    return node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))
      ? node.name.text
      : null;
  return null;
}

/** zod's checks, whose message argument a form shows beside its field (`z.minLength(1, '…')`). */
const zodCheck = /^(minLength|maxLength|length|gte|lte|gt|lt|regex|email|url|uuid|int|check)$/;

function calleeNameOf(call: ts.CallExpression): string {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  return ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
}

/** The constants a file gives zod's checks as their message (`const enterBoth = '…'`). */
function constantsGivenToChecks(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && zodCheck.test(calleeNameOf(node))) {
      for (const argument of node.arguments)
        if (ts.isIdentifier(argument)) names.add(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** Whether the literal stands where this code keeps its messages. */
function isMessagePlace(node: ts.Node, checkConstants: ReadonlySet<string>): boolean {
  let child: ts.Node = node;
  let parent = node.parent;
  // Through a choice (`a ? 'x' : 'y'`, `a ?? 'x'`) and the lines of a text (`['…', '…'].join('\n')`).
  while (
    parent &&
    (ts.isConditionalExpression(parent) ||
      ts.isBinaryExpression(parent) ||
      ts.isParenthesizedExpression(parent) ||
      ts.isArrayLiteralExpression(parent) ||
      (ts.isPropertyAccessExpression(parent) && parent.name.text === 'join') ||
      (ts.isCallExpression(parent) &&
        ts.isPropertyAccessExpression(parent.expression) &&
        parent.expression.name.text === 'join'))
  ) {
    child = parent;
    parent = parent.parent;
  }
  if (!parent) return false;
  if (ts.isPropertyAssignment(parent)) {
    const name = nameOf(parent) ?? '';
    if (messageProperty.test(name)) return true;
    // The values of a `somethingMessages = { … }` table.
    const table = parent.parent?.parent;
    return messageName.test(nameOf(table) ?? '');
  }
  if (ts.isVariableDeclaration(parent)) {
    const name = nameOf(parent) ?? '';
    return messageName.test(name) || checkConstants.has(name);
  }
  // The reason an amount's parser refuses it (`new MoneyParseError('…')`), which forms show.
  if (ts.isNewExpression(parent) && parent.arguments?.[0] === child) {
    return ts.isIdentifier(parent.expression) && parent.expression.text === 'MoneyParseError';
  }
  // A call to the translator (`t('…')`), or a refinement's message (`z.refine(check, '…')`).
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression;
    const calleeName = ts.isIdentifier(callee)
      ? callee.text
      : ts.isPropertyAccessExpression(callee)
        ? callee.name.text
        : '';
    if (calleeName === 't' && parent.arguments[0] === child) return true;
    if (zodCheck.test(calleeName)) return true;
    return calleeName === 'refine' && parent.arguments[1] === child;
  }
  // What a `somethingMessage(…)` function answers.
  if (ts.isReturnStatement(parent) || ts.isArrowFunction(parent)) {
    let scope: ts.Node | undefined = parent;
    while (scope && !ts.isFunctionLike(scope)) scope = scope.parent;
    const declared = scope && ts.isArrowFunction(scope) ? scope.parent : scope;
    return messageName.test(nameOf(declared) ?? '');
  }
  return false;
}

// What only the operator reads, in English: start-up refusals, the command line, the API
// reference's own title, the health probes.
const operatorOnly = /(^|\/)(config\.ts|cli\/|db\/|platform\/openapi\.ts|features\/health\/)/;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter(
      (entry) =>
        entry.isFile() && /\.ts$/.test(entry.name) && !/\.test\.ts$|\.d\.ts$/.test(entry.name),
    )
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !operatorOnly.test(file));
}

/** Every message literal of the TypeScript under `directories`, with where it is written. */
export function collectMessages(root: string, directories: string[]): SourceMessage[] {
  const found = new Map<string, Set<string>>();
  for (const file of directories.flatMap((directory) => sourceFiles(join(root, directory)))) {
    const source = ts.createSourceFile(
      file,
      readFileSync(file, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
    );
    const checkConstants = constantsGivenToChecks(source);
    const visit = (node: ts.Node) => {
      const text = textOf(node);
      if (
        text !== null &&
        !ts.isTemplateExpression(node.parent) &&
        isSentence(text) &&
        isMessagePlace(node, checkConstants)
      ) {
        const origins = found.get(text) ?? new Set<string>();
        origins.add(relative(root, file));
        found.set(text, origins);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...found]
    .map(([id, origins]) => ({ id, origins: [...origins].sort() }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
