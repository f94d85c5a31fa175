// html is htm bound to Preact's h: JSX-like templates without a build step.
import { h, render, Fragment } from '../vendor/preact.mjs';
import htm from '../vendor/htm.mjs';

export const html = htm.bind(h);
export { h, render, Fragment };
export { useState, useEffect, useMemo, useCallback, useRef, useContext } from '../vendor/hooks.mjs';
