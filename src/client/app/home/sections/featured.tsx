export { FeaturedSection as default } from '../../../features/featured-content';
