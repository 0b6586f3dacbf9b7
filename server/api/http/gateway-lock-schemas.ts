/**
 * The request messages of the Lock gateway routes (v3lock.proto, package v3lockpb), as jsonpb
 * field tables (jsonpb-schema.ts), in `.proto` order. A unit test checks each table against the
 * generated message codec.
 */
import { field, message, type MessageSchema } from './jsonpb-schema.js';

export const LockRequest: MessageSchema = message(field('name', 'bytes'), field('lease', 'int64'));

export const UnlockRequest: MessageSchema = message(field('key', 'bytes'));
