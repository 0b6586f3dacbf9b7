/**
 * The writer for a `-w/--write-out` value, or undefined for an unknown format.
 */
import { fieldsPrinter } from './fields.js';
import { jsonPrinter } from './json.js';
import { complete, type Printer, type PrinterOptions } from './printer.js';
import { protobufPrinter } from './protobuf.js';
import { simplePrinter } from './simple.js';
import { tablePrinter } from './table.js';

export const OUTPUT_FORMATS = ['simple', 'json', 'fields', 'table', 'protobuf'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function isOutputFormat(s: string): s is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(s);
}

export function makePrinter(format: OutputFormat, o: PrinterOptions): Printer {
  switch (format) {
    case 'simple':
      return complete(format, simplePrinter(o));
    case 'json':
      return complete(format, jsonPrinter(o));
    case 'fields':
      return complete(format, fieldsPrinter(o));
    case 'table':
      return complete(format, tablePrinter(o));
    case 'protobuf':
      return complete(format, protobufPrinter(o));
  }
}

export type { EpHashKV, EpHealth, EpStatus, Printer, PrintOutcome, PrinterOptions } from './printer.js';
