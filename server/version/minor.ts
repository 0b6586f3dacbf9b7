/**
 * The minor version lines kvstore can present itself as, oldest first.
 * Comparisons between lines go through `minorAtLeast`, never string compares.
 */
export const MINOR_VERSIONS = ['3.2', '3.3', '3.4', '3.5'] as const;
export type MinorVersion = (typeof MINOR_VERSIONS)[number];

/** True when `minor` is the same line as `floor` or newer. */
export function minorAtLeast(minor: MinorVersion, floor: MinorVersion): boolean {
  return MINOR_VERSIONS.indexOf(minor) >= MINOR_VERSIONS.indexOf(floor);
}
