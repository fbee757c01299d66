import { NotFoundContent } from '../components/not-found-content.tsx';

export function NotFoundPage() {
  return <NotFoundContent />;
}
