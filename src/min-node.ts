// The oldest Node this runs on, alone in its module so that reading it starts nothing.
// package.json `engines` says the same (a test keeps them equal).
export const MIN_NODE: readonly [number, number] = [20, 18];
