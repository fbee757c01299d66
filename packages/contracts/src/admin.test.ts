import { describe, expect, it } from 'vitest';
import { customerSearchIdentifiers } from './admin.ts';

describe('customerSearchIdentifiers', () => {
  it('reads a number as people read it out, in groups, whatever its first digits', () => {
    expect(customerSearchIdentifiers('0042')).toMatchObject({ cardLastFour: '0042', phone: null });
    expect(customerSearchIdentifiers('412 345 6789')).toEqual({
      accountNumber: '4123456789',
      phone: '+4123456789',
      cardLastFour: null,
      disputeReference: null,
    });
    for (const phone of ['+49 (151) 2345-6789', '0049 151 23456789', '4915123456789']) {
      expect(customerSearchIdentifiers(phone).phone, phone).toBe('+4915123456789');
    }
  });

  it('takes a dispute reference in any case, with or without REF-', () => {
    for (const term of ['REF-AB12CD34E', 'ref-ab12cd34e', 'AB12CD34E', ' refAB12CD34E ']) {
      expect(customerSearchIdentifiers(term).disputeReference, term).toBe('REF-AB12CD34E');
    }
  });

  it('finds no identifier in a name, an email or a part of a number', () => {
    for (const term of ['Tanaka', 'greta@example.com', '123', '12345', 'REF-AB12']) {
      expect(customerSearchIdentifiers(term), term).toEqual({
        accountNumber: null,
        phone: null,
        cardLastFour: null,
        disputeReference: null,
      });
    }
  });
});
