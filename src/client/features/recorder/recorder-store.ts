import { useSyncExternalStore } from 'react';
import { RECORDER_TEXT } from '../../../common/recorder';
import { toast } from '../../components/ui/use-toast';
import { StreamRecorder, type RecorderState } from './stream-recorder';

let shared: StreamRecorder | undefined;

/** The page's recorder; its list lives as long as the page (session-only). */
export function getRecorder(): StreamRecorder {
  shared ??= new StreamRecorder({
    onComplete: () => toast({ title: RECORDER_TEXT.completed }),
    onError: (error) => {
      console.warn('Recording error', error);
      toast({
        title: RECORDER_TEXT.failedTitle,
        description: RECORDER_TEXT.errorDuring,
        variant: 'destructive',
      });
    },
  });
  return shared;
}

export function useRecorderState(recorder: StreamRecorder = getRecorder()): RecorderState {
  return useSyncExternalStore(recorder.subscribe, recorder.getState, () => recorder.initialState);
}
