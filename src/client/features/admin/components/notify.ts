import { toast } from '../../../components/ui/use-toast';
import { serverMessage } from '../api/staff-request';

/** A success toast (SPEC.md section 8's texts). */
export function notifySuccess(title: string, description?: string): void {
  toast({ title, description });
}

/** A failure toast: the server's message when it gave one, else the fallback (SPEC.md section 8). */
export function notifyFailure(title: string, error: unknown, fallback: string = title): void {
  toast({ variant: 'destructive', title, description: serverMessage(error) ?? fallback });
}
