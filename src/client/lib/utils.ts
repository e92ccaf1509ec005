import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/** Joins class names, letting later Tailwind utilities win over earlier ones. */
export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}

/**
 * tailwind-merge builds its map of Tailwind's classes on its first call, tens of milliseconds on a phone.
 * The page's start-up calls this in a task of its own, so that work does not lengthen hydration's.
 */
export function prepareClassMerging() {
  twMerge('p-0');
}
