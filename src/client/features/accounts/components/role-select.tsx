import { ROLES, type Role } from '../../../../common/accounts';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';

const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', superuser: 'Superuser', presenter: 'Presenter' };

/** SPEC.md section 9's roles admin and superuser, and presenter ("My broadcast" only). */
export function RoleSelect({
  id,
  value,
  onChange,
  disabled,
  label = 'Role',
}: {
  id?: string;
  value: Role;
  onChange: (role: Role) => void;
  disabled?: boolean;
  label?: string;
}) {
  return (
    <Select value={value} onValueChange={(next) => onChange(next as Role)} disabled={disabled}>
      <SelectTrigger id={id} aria-label={label} className="w-full sm:w-36">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {ROLES.map((role) => (
          <SelectItem key={role} value={role}>
            {ROLE_LABELS[role]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
