import { cva, type VariantProps } from 'class-variance-authority';
import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/utils';

const badgeVariants = cva(
  'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold transition-colors',
  {
    variants: {
      variant: {
        default: 'border-transparent bg-blue-900 text-white',
        gold: 'border-transparent bg-amber-100 text-amber-900',
        secondary: 'border-transparent bg-slate-100 text-slate-800',
        live: 'border-transparent bg-red-600 text-white',
        success: 'border-transparent bg-green-100 text-green-800',
        outline: 'border-slate-300 text-slate-800',
      },
    },
    defaultVariants: { variant: 'default' },
  },
);

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement>, VariantProps<typeof badgeVariants> {}

export function Badge({ className, variant, ...props }: BadgeProps) {
  return <span className={cn(badgeVariants({ variant }), className)} {...props} />;
}
