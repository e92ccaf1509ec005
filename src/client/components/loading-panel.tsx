/** SPEC.md section 2: shown while the stored token is checked. */
export function LoadingPanel() {
  return (
    <p role="status" className="p-8 text-center text-slate-700">
      Loading admin panel...
    </p>
  );
}
