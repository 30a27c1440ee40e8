import type { Scenario } from './scenario.ts';
import { sequence } from './sequence.ts';
import { coffeeVisits } from './coffeeVisits.ts';
import { retailTransactions } from './retailTransactions.ts';
import { orders } from './orders.ts';
import { payments } from './payments.ts';
import { customers } from './customers.ts';
import { deliveries } from './deliveries.ts';
import { nexmark } from './nexmark.ts';
import { datagen } from './datagen.ts';

export const scenarios: readonly Scenario[] = [sequence, coffeeVisits, retailTransactions, orders, payments, customers, deliveries, nexmark, datagen];

const byName = new Map(scenarios.map((s) => [s.name, s]));

export const scenarioNames = (): string[] => scenarios.map((s) => s.name);

export function scenario(name: string): Scenario | undefined {
  return byName.get(name);
}

export type { Scenario, ScenarioContext } from './scenario.ts';
export type { DatagenColumn, DatagenTable } from './datagen.ts';
