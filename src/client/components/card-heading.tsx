import { CardDescription, CardTitle } from './ui/card';

/** A card's title with its line underneath (a count once it is known, else what the card holds). */
export function CardHeading({ title, description }: { title: string; description: string }) {
  return (
    <div className="space-y-1.5">
      <CardTitle>{title}</CardTitle>
      <CardDescription>{description}</CardDescription>
    </div>
  );
}

/** '1 subscriber', '3 subscribers'. */
export const countOf = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
