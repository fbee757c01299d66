// Fails `npm run lint` when the web app shows text that does not go through Lingui
// (docs/decisions/054): words written straight into JSX, or given as a literal to a prop a
// person reads (label, title, placeholder, aria-label…). Such text would stay English on a
// German, Japanese or Arabic page. Text inside Lingui's <Trans>, <Plural>, <Select> and
// <SelectOrdinal> is the message itself and passes; so does text with no letters ("•",
// "404", "—") and the names in `untranslatedWords` (the product's and its protocols').
//
// Biome's noJsxLiterals cannot be told that <Trans>'s children are messages, so it would
// refuse every translated sentence.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const webSrc = path.join(root, 'apps/web/src');

/**
 * Features whose pages are not translated yet (issue #35; e2e/languages.test.ts reads the
 * same list): it only shrinks. Every other feature, and the frame every page shares, is
 * held to the rule.
 */
const featuresNotYetTranslated = new Set(
  JSON.parse(readFileSync(path.join(root, 'scripts/features-not-yet-translated.json'), 'utf8')),
);
const checkedDirectories = [
  'app',
  'components',
  ...readdirSync(path.join(webSrc, 'features'))
    .filter((feature) => !featuresNotYetTranslated.has(feature))
    .map((feature) => path.join('features', feature)),
];
/** Lingui's elements whose children are the message, not text to translate. */
const messageElements = new Set(['Trans', 'Plural', 'Select', 'SelectOrdinal']);
/** Props whose literal value a person reads or hears. */
const textProps = new Set([
  'label',
  'title',
  'placeholder',
  'description',
  'aria-label',
  'aria-description',
  'alt',
  'error',
  'busyLabel',
  'confirmLabel',
  'backLabel',
  'accessibleName',
  'emptyDescription',
  'tooltip',
  'message',
  'heading',
  'caption',
]);
/** Names that are the same in every language. */
const untranslatedWords = new Set(['Coffer', 'IBAN', 'BIC', 'SWIFT', 'CSV', 'PDF', 'API', 'URL']);
const letter = /\p{L}/u;

function sourceFiles(directory) {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter(
      (entry) => entry.isFile() && entry.name.endsWith('.tsx') && !entry.name.includes('.test.'),
    )
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function isWords(text) {
  const trimmed = text.trim();
  return letter.test(trimmed) && !untranslatedWords.has(trimmed);
}

function tagNameOf(element) {
  const tag = ts.isJsxElement(element) ? element.openingElement.tagName : element.tagName;
  return tag.getText();
}

function isInsideMessage(node) {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (
      (ts.isJsxElement(parent) || ts.isJsxSelfClosingElement(parent)) &&
      messageElements.has(tagNameOf(parent))
    ) {
      return true;
    }
  }
  return false;
}

/** The string literals a prop's value can show: `"x"`, `{'x'}`, `{c ? 'x' : 'y'}`, `{a ?? 'x'}`. */
function shownLiterals(expression) {
  if (!expression) return [];
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression))
    return [expression];
  if (ts.isTemplateExpression(expression))
    return [expression.head, ...expression.templateSpans.map((span) => span.literal)];
  if (ts.isJsxExpression(expression) || ts.isParenthesizedExpression(expression))
    return shownLiterals(expression.expression);
  if (ts.isConditionalExpression(expression))
    return [...shownLiterals(expression.whenTrue), ...shownLiterals(expression.whenFalse)];
  if (
    ts.isBinaryExpression(expression) &&
    [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(
      expression.operatorToken.kind,
    )
  ) {
    return [...shownLiterals(expression.left), ...shownLiterals(expression.right)];
  }
  return [];
}

function problemsIn(file) {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TSX,
  );
  const problems = [];
  const report = (node, text) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    problems.push(
      `${path.relative(root, file)}:${line + 1}: "${text.trim().replace(/\s+/g, ' ').slice(0, 60)}"`,
    );
  };
  const visit = (node) => {
    if (ts.isJsxText(node) && isWords(node.text) && !isInsideMessage(node)) report(node, node.text);
    if (ts.isJsxExpression(node) && ts.isJsxElement(node.parent) && !isInsideMessage(node)) {
      for (const literal of shownLiterals(node.expression))
        if (isWords(literal.text)) report(literal, literal.text);
    }
    if (ts.isJsxAttribute(node) && textProps.has(node.name.getText())) {
      for (const literal of shownLiterals(node.initializer))
        if (isWords(literal.text)) report(literal, literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return problems;
}

// Directories given as arguments instead (the script's own test).
const directories =
  process.argv.length > 2
    ? process.argv.slice(2)
    : checkedDirectories.map((directory) => path.join(webSrc, directory));
const problems = directories.flatMap((directory) => sourceFiles(directory).flatMap(problemsIn));
if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(
    `\n${problems.length} text(s) shown as written, not translated: wrap them in <Trans> or t\`…\` (Lingui; docs/decisions/054, scripts/check-literal-text.mjs).`,
  );
  // Not process.exit: it can cut off the list above while a pipe still writes it.
  process.exitCode = 1;
}
