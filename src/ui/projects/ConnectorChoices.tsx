import type { PipelineDocument } from '../../pipeline/document.ts';
import { kindSpec } from '../../pipeline/kinds/index.ts';
import type { ConnectorName } from '../../export/flinkSql/options.ts';
import { SINK_CONNECTORS, SOURCE_CONNECTORS } from '../../export/flinkSql/options.ts';
import { useT } from '../i18n/i18n.ts';

export type ConnectorChoice = Record<string, ConnectorName>;

/**
 * One connector template per source and sink of the export: Kafka, filesystem, datagen and the
 * others the exporter writes. Unchosen nodes keep the exporter's default for their kind.
 */
export function ConnectorChoices({ doc, value, onChange }: { doc: PipelineDocument; value: ConnectorChoice; onChange(next: ConnectorChoice): void }) {
  const t = useT();
  const ends = doc.nodes.flatMap((n): { id: string; options: readonly ConnectorName[] }[] => {
    const group = kindSpec(n.kind)?.group;
    return group === 'sources' ? [{ id: n.id, options: SOURCE_CONNECTORS }] : group === 'sinks' ? [{ id: n.id, options: SINK_CONNECTORS }] : [];
  });
  if (!ends.length) return null;
  const set = (id: string, c: string) => {
    const { [id]: _old, ...rest } = value;
    onChange(c ? { ...rest, [id]: c as ConnectorName } : rest);
  };
  return (
    <fieldset className="connector-choices">
      <legend className="field-label">{t('projects.sql.connectors')}</legend>
      {ends.map((e) => (
        <label key={e.id} className="connector-choice">
          <span className="mono">{e.id}</span>
          <select className="input" aria-label={t('projects.sql.connectorFor', { id: e.id })} value={value[e.id] ?? ''} onChange={(ev) => set(e.id, ev.target.value)}>
            <option value="">{t('projects.sql.connectorDefault')}</option>
            {e.options.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      ))}
    </fieldset>
  );
}
