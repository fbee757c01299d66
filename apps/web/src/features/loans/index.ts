// What other features may use from loans (the back office's customer page shows them).

export { customerLoansQueryOptions } from './api.ts';
export { CustomerLoansTab } from './components/customer-loans-tab.tsx';
export { DisburseLoanForm } from './components/disburse-loan-form.tsx';
