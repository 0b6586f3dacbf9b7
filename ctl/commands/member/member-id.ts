/**
 * Member ids as etcdctl takes them: hexadecimal uint64, with its error text.
 */
export function parseMemberId(text: string): bigint | { readonly message: string } {
  if (!/^[0-9a-fA-F]+$/.test(text)) return { message: `bad member ID arg (strconv.ParseUint: parsing ${JSON.stringify(text)}: invalid syntax), expecting ID in Hex` };
  const v = BigInt(`0x${text}`);
  if (v > 0xffffffffffffffffn) return { message: `bad member ID arg (strconv.ParseUint: parsing ${JSON.stringify(text)}: value out of range), expecting ID in Hex` };
  return v;
}
