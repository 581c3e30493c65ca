import type { Family } from '../family';
import { flakyReport } from './flaky-report/family';
import { orderFulfilment } from './order-fulfilment/family';
import { recordAudit } from './record-audit/family';
import { ticketSummary } from './ticket-summary/family';

/** Every family `evolution evaluate` knows; add yours here (docs/evaluation.md). */
export const FAMILIES: readonly Family[] = [orderFulfilment, flakyReport, ticketSummary, recordAudit];

export function familyNamed(name: string): Family {
  const family = FAMILIES.find((f) => f.name === name);
  if (!family) throw new Error(`unknown family "${name}"; known: ${FAMILIES.map((f) => f.name).join(', ')}`);
  return family;
}
