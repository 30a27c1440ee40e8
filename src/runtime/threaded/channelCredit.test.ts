import { describe, expect, it } from 'vitest';
import { channelCredit, creditFor } from './deploySpec.ts';
import { ChannelTable } from './channels.ts';

describe('channel credit', () => {
  it('gives the channels of a split edge the messages of the same record budget; a capacity the job set stays as set', () => {
    const byRecords = { channelCapacity: creditFor(256), creditByRecords: true, batchSize: 256 };
    expect(channelCredit(byRecords, 1)).toBe(4);
    // Batches of 256 split in two: about 128 records a message, so 8 messages keep ~1,024 records in flight.
    expect(channelCredit(byRecords, 2)).toBe(8);
    // Still bounded: no more than 8 messages however many receivers.
    expect(channelCredit(byRecords, 16)).toBe(8);
    expect(channelCredit({ ...byRecords, channelCapacity: 4, creditByRecords: false }, 2)).toBe(4);
  });

  it('holds each channel to its own capacity', () => {
    const table = new ChannelTable(2, 'columnar');
    table.addOut(0, 0, 0, 1, 8);
    table.addOut(0, 0, 1, 1);
    const sent = (to: number) => {
      let n = 0;
      while (table.hasCredit(0, 0, to)) {
        table.send(0, 0, to, { t: 'wm', wm: n });
        n++;
      }
      return n;
    };
    expect([sent(0), sent(1)]).toEqual([8, 2]);
  });
});
