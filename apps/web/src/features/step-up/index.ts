// What other features may use from step-up: the code field every money-out form asks for.
export { StepUpCodeField } from './step-up-code-field.tsx';
