// Installing the station as an app (the header's button lives in components/, on lib/install-prompt).
export { InstallBanner } from './components/install-banner';
