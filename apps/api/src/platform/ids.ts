import { v7 as uuidv7 } from 'uuid';

/** Time-ordered ids (UUIDv7): opaque to users, index-friendly, sortable by creation. */
export function newId(): string {
  return uuidv7();
}
