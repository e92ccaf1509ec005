import { Footer } from '../../../components/layout/footer';
import { SocialLinksBand } from '../social-links-band';

/** The social links band and the footer, below every section. */
export default function SiteFooter() {
  return (
    <>
      <SocialLinksBand />
      <Footer />
    </>
  );
}
