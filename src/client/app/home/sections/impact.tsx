export { ViralImpactCard as default } from '../../../features/sharing';
