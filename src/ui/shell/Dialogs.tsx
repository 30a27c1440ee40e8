import { useStore } from '../store/createStore.ts';
import { uiStore } from '../store/uiStore.ts';
import { HelpOverlay } from './HelpOverlay.tsx';
import { Gallery } from '../projects/Gallery.tsx';
import { ProjectsDialog } from '../projects/ProjectsDialog.tsx';
import { TrustPrompt } from '../projects/TrustPrompt.tsx';
import { ShareDialog } from '../projects/ShareDialog.tsx';
import { FlinkSqlDialog } from '../projects/FlinkSqlDialog.tsx';
import { LessonsHome } from '../lessons/LessonsHome.tsx';

export function Dialogs() {
  const dialog = useStore(uiStore, (s) => s.dialog);
  switch (dialog) {
    case 'help':
      return <HelpOverlay />;
    case 'gallery':
      return <Gallery />;
    case 'projects':
      return <ProjectsDialog />;
    case 'trust':
      return <TrustPrompt />;
    case 'share':
      return <ShareDialog />;
    case 'flinkSql':
      return <FlinkSqlDialog />;
    case 'lessons':
      return <LessonsHome />;
    default:
      return null;
  }
}
