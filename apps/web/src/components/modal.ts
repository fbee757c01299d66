// Mantine's Modal on its own, for modal-on-demand.ts to load in a chunk of its own.
export { Modal } from '@mantine/core';
