/**
 * The request messages of the gateway's Auth routes (rpc.proto and auth.proto), as jsonpb field
 * tables (jsonpb-schema.ts), in declaration order. A unit test checks each table against the
 * generated message codec (same fields, same names).
 */
import { enumKind, field, message, messageKind, type MessageSchema } from './jsonpb-schema.js';

const permissionType = enumKind('authpb.Permission_Type', ['READ', 'WRITE', 'READWRITE']);

const EMPTY: MessageSchema = message();

export const AuthEnableRequest = EMPTY;
export const AuthDisableRequest = EMPTY;
export const AuthStatusRequest = EMPTY;
export const AuthUserListRequest = EMPTY;
export const AuthRoleListRequest = EMPTY;

export const AuthenticateRequest: MessageSchema = message(field('name', 'string'), field('password', 'string'));

export const UserAddOptions: MessageSchema = message(field('no_password', 'bool'));

export const AuthUserAddRequest: MessageSchema = message(
  field('name', 'string'),
  field('password', 'string'),
  field('options', messageKind(() => UserAddOptions)),
  field('hashedPassword', 'string'),
);

export const AuthUserGetRequest: MessageSchema = message(field('name', 'string'));
export const AuthUserDeleteRequest: MessageSchema = message(field('name', 'string'));

export const AuthUserChangePasswordRequest: MessageSchema = message(
  field('name', 'string'),
  field('password', 'string'),
  field('hashedPassword', 'string'),
);

export const AuthUserGrantRoleRequest: MessageSchema = message(field('user', 'string'), field('role', 'string'));
export const AuthUserRevokeRoleRequest: MessageSchema = message(field('name', 'string'), field('role', 'string'));

export const AuthRoleAddRequest: MessageSchema = message(field('name', 'string'));
export const AuthRoleGetRequest: MessageSchema = message(field('role', 'string'));
export const AuthRoleDeleteRequest: MessageSchema = message(field('role', 'string'));

export const Permission: MessageSchema = message(field('permType', permissionType), field('key', 'bytes'), field('range_end', 'bytes'));

export const AuthRoleGrantPermissionRequest: MessageSchema = message(
  field('name', 'string'),
  field('perm', messageKind(() => Permission)),
);

export const AuthRoleRevokePermissionRequest: MessageSchema = message(
  field('role', 'string'),
  field('key', 'bytes'),
  field('range_end', 'bytes'),
);
