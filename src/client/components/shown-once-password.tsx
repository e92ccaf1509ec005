import Copy from 'lucide-react/icons/copy';
import { Button } from './ui/button';
import { Input } from './ui/input';
import { Label } from './ui/label';
import { toast } from './ui/use-toast';

async function copy(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: `${what} copied` });
  } catch {
    toast({ variant: 'destructive', title: 'Copy failed', description: 'Please copy it by hand.' });
  }
}

/** A read-only value with a button that copies it. */
export function CopyField(props: { id: string; label: string; value: string; small?: boolean }) {
  return (
    <div className="space-y-1">
      <Label htmlFor={props.id}>{props.label}</Label>
      <div className="flex gap-2">
        <Input
          id={props.id}
          readOnly
          value={props.value}
          className={props.small ? 'font-mono text-xs' : 'font-mono'}
        />
        <Button
          variant="outline"
          size="icon"
          aria-label={`Copy ${props.label.toLowerCase()}`}
          onClick={() => void copy(props.value, props.label)}
        >
          <Copy aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}

/** A new password, shown only this once, with what goes with it (the encoder address). */
export function ShownOncePassword(props: {
  id: string;
  label: string;
  password: string;
  extra?: { id: string; label: string; value: string }[];
}) {
  return (
    <div
      className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-4"
      data-testid="shown-once-password"
    >
      <p className="text-sm font-medium text-amber-900">Copy it now: the password is shown only this once.</p>
      <CopyField id={props.id} label={props.label} value={props.password} />
      {props.extra?.map((field) => (
        <CopyField key={field.id} {...field} small />
      ))}
    </div>
  );
}
