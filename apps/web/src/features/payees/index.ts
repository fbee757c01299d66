// What other features may use from payees: the picker that Quick Pay, Pay Bills and
// Withdraw show above their forms.
export { SavedPayeeSelect } from './components/saved-payee-select.tsx';
