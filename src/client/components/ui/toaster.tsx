import type { Ref } from 'react';
import {
  TOAST_DURATION_MS,
  TOAST_HOTKEY,
  TOAST_SWIPE_DIRECTION,
  TOAST_SWIPE_THRESHOLD,
} from '../../../common/ui';
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast';
import { useToast } from './use-toast';

/** SPEC.md section 4: one toast at a time, 5000 ms, swipe right past 50 px, F8 focuses the area. */
export function Toaster({ viewportRef }: { viewportRef?: Ref<HTMLOListElement> }) {
  const { toasts } = useToast();
  return (
    <ToastProvider
      duration={TOAST_DURATION_MS}
      swipeDirection={TOAST_SWIPE_DIRECTION}
      swipeThreshold={TOAST_SWIPE_THRESHOLD}
    >
      {toasts.map(({ id, title, description, action, ...props }) => (
        <Toast key={id} {...props}>
          <div className="grid gap-1">
            {title && <ToastTitle>{title}</ToastTitle>}
            {description && <ToastDescription>{description}</ToastDescription>}
          </div>
          {action}
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport ref={viewportRef} hotkey={TOAST_HOTKEY} />
    </ToastProvider>
  );
}
