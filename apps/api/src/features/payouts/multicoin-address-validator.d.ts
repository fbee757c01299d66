// The package ships no types; this covers the one function Coffer calls.
declare module 'multicoin-address-validator' {
  const WAValidator: {
    /** True when `address` is valid for the currency (a name or symbol, e.g. 'BTC'). */
    validate(
      address: string,
      currencyNameOrSymbol: string,
      networkType?: 'prod' | 'testnet',
    ): boolean;
  };
  export default WAValidator;
}
