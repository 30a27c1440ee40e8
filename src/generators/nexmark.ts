import type { Rng } from '../core/rng.ts';
import type { Row } from '../core/types.ts';
import type { Scenario, ScenarioContext } from './scenario.ts';
import { disorder, slot } from './scenario.ts';
import { logPrice } from './logPrice.ts';

/**
 * The Nexmark auction stream (persons, auctions, bids), after the nexmark project's Flink
 * generator: of every 50 events 1 is a person, 3 are auctions and 46 are bids; ids start at
 * 1000; bids favour "hot" auctions and bidders; prices are log-uniform. Like Flink's `datagen`
 * table, one stream carries all three kinds: `event_type` (0 person, 1 auction, 2 bid) says
 * which of the nested rows is set, and queries filter and project it into their views.
 * Event i is a pure function of (seed, i), so any offset replays exactly.
 */
const PROPORTION = { person: 1, auction: 3, total: 50 } as const;
const FIRST_ID = 1000;
const FIRST_CATEGORY = 10;
const IN_FLIGHT_AUCTIONS = 100;
const ID_LEAD = 10;
const HOT_RATIO = 100;
const CHANNELS = ['Google', 'Facebook', 'Baidu', 'Apple'] as const;
const STATES = ['AZ', 'CA', 'ID', 'OR', 'WA', 'WY'] as const;
const CITIES = ['Phoenix', 'Los Angeles', 'San Francisco', 'Boise', 'Portland', 'Bend', 'Redmond', 'Seattle', 'Kent', 'Cheyenne'] as const;
const FIRST = ['Peter', 'Paul', 'Luke', 'John', 'Saul', 'Vicky', 'Kate', 'Julie', 'Sarah', 'Deiter', 'Walter'] as const;
const URL_HEAD = 'https://www.nexmark.com/';
const URL_TAILS = CHANNELS.map((_, c) => `/item.htm?query=1&channel_id=${c}`);
const LAST = ['Shultz', 'Abrams', 'Spencer', 'White', 'Bartels', 'Walton', 'Smith', 'Jones', 'Noris'] as const;

/** Random-looking text to cut strings from: a substring is O(1) in V8, as cheap as Java's reuse of buffers. */
const POOL = (() => {
  let s = '';
  let x = 0x2545f491;
  for (let i = 0; i < 4096; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    s += String.fromCharCode(97 + ((x >>> 16) % 26));
  }
  return s;
})();

const text = (rng: Rng, len: number): string => {
  const at = rng.int(POOL.length - len);
  return POOL.substring(at, at + len);
};

/** Pads a record towards an average byte size, as the generator's `nextExtra`. */
function extra(rng: Rng, currentSize: number, desiredAverage: number): string {
  if (currentSize > desiredAverage) return '';
  const avg = desiredAverage - currentSize;
  const delta = Math.floor(avg / 5);
  return text(rng, avg - delta + rng.int(2 * delta + 1));
}

/** Log-uniform price in cents: 100 × 10^(0..6). */
const price = (rng: Rng): number => logPrice(rng.next());

const kindOf = (i: number): 0 | 1 | 2 => {
  const o = i % PROPORTION.total;
  return o < PROPORTION.person ? 0 : o < PROPORTION.person + PROPORTION.auction ? 1 : 2;
};

/** Base-0 id of the last person created at or before event i. */
const lastPerson = (i: number): number => Math.floor(i / PROPORTION.total);

function lastAuction(i: number): number {
  const epoch = Math.floor(i / PROPORTION.total);
  const o = i % PROPORTION.total;
  if (o < PROPORTION.person) return (epoch - 1) * PROPORTION.auction + PROPORTION.auction - 1;
  if (o >= PROPORTION.person + PROPORTION.auction) return epoch * PROPORTION.auction + PROPORTION.auction - 1;
  return epoch * PROPORTION.auction + (o - PROPORTION.person);
}

/** A random active person (ctx.keys of them), with a few not-yet-created ids. */
function somePerson(i: number, rng: Rng, ctx: ScenarioContext): number {
  const people = lastPerson(i) + 1;
  const active = Math.min(people, ctx.keys);
  return people - active + rng.int(active + ID_LEAD);
}

function someAuction(i: number, rng: Rng): number {
  const max = Math.max(0, lastAuction(i));
  const min = Math.max(max - IN_FLIGHT_AUCTIONS, 0);
  return min + rng.int(max - min + 1 + ID_LEAD);
}

function person(i: number, rng: Rng, ts: number, ctx: ScenarioContext): Row {
  const name = `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
  const emailAddress = `${text(rng, 7)}@${text(rng, 5)}.com`;
  const creditCard = `${1000 + rng.int(9000)} ${1000 + rng.int(9000)} ${1000 + rng.int(9000)} ${1000 + rng.int(9000)}`;
  const city = rng.pick(CITIES);
  const state = rng.pick(STATES);
  const size = 8 + name.length + emailAddress.length + creditCard.length + city.length + state.length;
  return { id: lastPerson(i) + FIRST_ID, name, emailAddress, creditCard, city, state, dateTime: ts, extra: extra(rng, size, 200) };
}

function auction(i: number, rng: Rng, ts: number, ctx: ScenarioContext): Row {
  const id = lastAuction(i) + FIRST_ID;
  const seller = (rng.int(4) > 0 ? Math.floor(lastPerson(i) / HOT_RATIO) * HOT_RATIO : somePerson(i, rng, ctx)) + FIRST_ID;
  const initialBid = price(rng);
  const itemName = text(rng, 20);
  const description = text(rng, 100);
  // Auctions last about as long as it takes to create the next IN_FLIGHT_AUCTIONS of them.
  const horizon = Math.max(1, ((IN_FLIGHT_AUCTIONS * PROPORTION.total) / PROPORTION.auction) * ctx.intervalMs);
  return {
    id,
    itemName,
    description,
    initialBid,
    reserve: initialBid + price(rng),
    dateTime: ts,
    expires: ts + 1 + rng.int(Math.ceil(horizon * 2)),
    seller,
    category: FIRST_CATEGORY + rng.int(5),
    extra: extra(rng, 8 + itemName.length + description.length + 40, 500),
  };
}

function bid(i: number, rng: Rng, ts: number, ctx: ScenarioContext): Row {
  const auctionId = (rng.int(2) > 0 ? Math.floor(lastAuction(i) / HOT_RATIO) * HOT_RATIO : someAuction(i, rng)) + FIRST_ID;
  const bidder = (rng.int(4) > 0 ? Math.floor(lastPerson(i) / HOT_RATIO) * HOT_RATIO + 1 : somePerson(i, rng, ctx)) + FIRST_ID;
  // The same draw as rng.pick(CHANNELS), kept as an index: the url's tail is made once per channel.
  const c = rng.int(CHANNELS.length);
  return {
    auction: auctionId,
    bidder,
    price: price(rng),
    channel: CHANNELS[c],
    url: URL_HEAD + text(rng, 5) + URL_TAILS[c],
    dateTime: ts,
    extra: extra(rng, 32, 100),
  };
}

export const nexmark: Scenario = {
  name: 'nexmark',
  summary: 'The Nexmark auction stream: persons (2%), auctions (6%) and bids (92%) as one stream, like Flink\'s nexmark datagen table; `keys` is the number of active people.',
  fields: { event_type: 'integer', person: 'json', auction: 'json', bid: 'json', ts: 'timestamp' },
  defaultKeys: 1000,
  row(i, rng, ctx) {
    // Whole milliseconds, as the Java generator's (long) timestamps.
    const ts = Math.floor(slot(ctx, i)) - disorder(ctx, rng);
    const type = kindOf(i);
    return {
      event_type: type,
      person: type === 0 ? person(i, rng, ts, ctx) : null,
      auction: type === 1 ? auction(i, rng, ts, ctx) : null,
      bid: type === 2 ? bid(i, rng, ts, ctx) : null,
      ts,
    };
  },
};
