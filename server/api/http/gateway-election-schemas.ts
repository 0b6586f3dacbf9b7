/**
 * The request messages of the Election gateway routes (v3election.proto, package
 * v3electionpb), as jsonpb field tables (jsonpb-schema.ts), in `.proto` order.
 * A unit test checks each table against the generated message codec.
 */
import { field, message, messageKind, type MessageSchema } from './jsonpb-schema.js';

export const LeaderKey: MessageSchema = message(field('name', 'bytes'), field('key', 'bytes'), field('rev', 'int64'), field('lease', 'int64'));

export const CampaignRequest: MessageSchema = message(field('name', 'bytes'), field('lease', 'int64'), field('value', 'bytes'));

export const LeaderRequest: MessageSchema = message(field('name', 'bytes'));

export const ResignRequest: MessageSchema = message(field('leader', messageKind(() => LeaderKey)));

export const ProclaimRequest: MessageSchema = message(field('leader', messageKind(() => LeaderKey)), field('value', 'bytes'));
