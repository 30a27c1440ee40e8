import { describe, expect, it } from 'vitest';
import { getBezierPath, Position } from '@xyflow/react';
import { joinFrame } from './fixtures.ts';
import { changelogKinds, edgeSignature, pointOnEdge, pressureBand } from './edgeGeometry.ts';

describe('edge overlay geometry', () => {
  it('walks along the bezier React Flow draws, from source to target', () => {
    const [path] = getBezierPath({ sourceX: 0, sourceY: 0, targetX: 200, targetY: 100, sourcePosition: Position.Right, targetPosition: Position.Left });
    expect(pointOnEdge(path, 0, [0, 0], [200, 100])).toEqual([0, 0]);
    expect(pointOnEdge(path, 1, [0, 0], [200, 100])).toEqual([200, 100]);
    const [mx, my] = pointOnEdge(path, 0.5, [0, 0], [200, 100]);
    expect(mx).toBeCloseTo(100);
    expect(my).toBeCloseTo(50);
    // Early on the curve leaves the source horizontally, as the bezier handles point right.
    const [qx, qy] = pointOnEdge(path, 0.1, [0, 0], [200, 100]);
    expect(qx).toBeGreaterThan(qy * 2);
  });

  it('falls back to a straight line for other path shapes and clamps progress', () => {
    expect(pointOnEdge('M0,0 L10,10', 0.5, [0, 0], [10, 20])).toEqual([5, 10]);
    expect(pointOnEdge('M0,0 L10,10', 3, [0, 0], [10, 20])).toEqual([10, 20]);
  });

  it('bands backpressure and lists changelog kinds only for updating edges', () => {
    expect([0.1, 0.55, 0.92].map(pressureBand)).toEqual(['low', 'mid', 'high']);
    expect(changelogKinds({ '+I': 3 })).toEqual([]);
    expect(changelogKinds({ '+U': 1, '+I': 3, '-U': 1 })).toEqual(['+I', '-U', '+U']);
  });

  it('gives equal signatures to observations that draw the same', () => {
    const e = joinFrame.edges[0];
    expect(edgeSignature({ ...e, rate: 42.51, sample: [] })).toBe(edgeSignature(e));
    expect(edgeSignature({ ...e, barriers: [{ checkpointId: 3, progress: 0.5 }] })).not.toBe(edgeSignature(e));
    expect(edgeSignature(undefined)).toBe('');
  });
});
