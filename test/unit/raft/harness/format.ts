/** Text forms of messages, entries and Ready parts for golden transcripts and failure output. */
import { EntryType, type Entry } from '../../../../server/raft/log-types.js';
import { CAMPAIGN_TRANSFER, decodeConfChange, MessageType, type Message, type Snapshot } from '../../../../server/raft/index.js';

const ids = (xs: readonly bigint[]): string => `[${xs.join(' ')}]`;

export function formatEntry(e: Entry): string {
  if (e.type === EntryType.ENTRY_CONF_CHANGE) {
    const cc = decodeConfChange(e.data);
    return `${e.term}/${e.index} ${cc === undefined ? 'ConfChange?' : `${cc.type} ${cc.nodeId}`}`;
  }
  return `${e.term}/${e.index} ${JSON.stringify(e.data.toString('utf8'))}`;
}

export function formatEntries(ents: readonly Entry[]): string {
  return `[${ents.map(formatEntry).join(', ')}]`;
}

export function formatSnapshot(s: Snapshot): string {
  const cs = s.metadata.confState ?? { voters: [], learners: [] };
  return `${s.metadata.index}/${s.metadata.term} voters=${ids(cs.voters)} learners=${ids(cs.learners)}`;
}

export function formatMessage(m: Message): string {
  let s = `${m.from}->${m.to} ${m.type} term=${m.term}`;
  switch (m.type) {
    case MessageType.MsgApp:
      s += ` log=${m.logTerm}/${m.index} commit=${m.commit}`;
      if (m.entries.length > 0) s += ` entries=${formatEntries(m.entries)}`;
      break;
    case MessageType.MsgAppResp:
      s += ` index=${m.index}`;
      if (m.reject) s += ` reject hint=${m.logTerm}/${m.rejectHint}`;
      break;
    case MessageType.MsgVote:
    case MessageType.MsgPreVote:
      s += ` log=${m.logTerm}/${m.index}`;
      if (m.context.equals(CAMPAIGN_TRANSFER)) s += ' transfer';
      break;
    case MessageType.MsgVoteResp:
    case MessageType.MsgPreVoteResp:
      if (m.reject) s += ' reject';
      break;
    case MessageType.MsgHeartbeat:
      s += ` commit=${m.commit}`;
      if (m.context.length > 0) s += ` ctx=${m.context.toString('utf8')}`;
      break;
    case MessageType.MsgHeartbeatResp:
      if (m.context.length > 0) s += ` ctx=${m.context.toString('utf8')}`;
      break;
    case MessageType.MsgSnap:
      if (m.snapshot !== undefined) s += ` snapshot=${formatSnapshot(m.snapshot)}`;
      break;
    case MessageType.MsgReadIndex:
      s += ` ctx=${m.context.toString('utf8')}`;
      break;
    case MessageType.MsgReadIndexResp:
      s += ` index=${m.index} ctx=${m.context.toString('utf8')}`;
      break;
    case MessageType.MsgTransferLeader:
      s += ` transferee=${m.from}`;
      break;
    case MessageType.MsgProp:
      s += ` entries=${formatEntries(m.entries)}`;
      break;
  }
  return s;
}
