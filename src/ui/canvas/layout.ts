/** The canvas's auto-layout: the pipeline's elkjs layout with the sizes the canvas measured. */
export { autoLayout } from '../../pipeline/autoLayout.ts';
