import { Modal as MantineModal, type ModalProps } from '@mantine/core';
import { useEffect, useState } from 'react';

/**
 * Mantine's Modal, opening one render after it mounts. Mantine notes the element to give
 * the focus back to when `opened` turns true, not when the Modal mounts already open, and a
 * dialog whose code loads on its first opening does just that: its first close dropped the
 * keyboard's focus on the page's body. Loaded on its own by modal-on-demand.ts.
 */
export function Modal({ opened, ...props }: ModalProps) {
  const [hasMounted, setHasMounted] = useState(false);
  useEffect(() => setHasMounted(true), []);
  return <MantineModal {...props} opened={opened && hasMounted} />;
}
