/** Accounts and sub-accounts: creation and the per-account settings tests change. */

import { isDecimalString } from '../../_internal/decimal.ts';
import type { AccountState, PositionMode, SubAccountState } from './state.ts';
import type { EngineStore } from './store.ts';

export interface NewAccount {
  balances?: Record<string, string> | undefined;
  spotBalances?: Record<string, string> | undefined;
  spotShape?: 'array' | 'raw' | undefined;
  positionMode?: PositionMode | undefined;
  subAccount?: boolean | undefined;
}

export function createAccount(
  store: EngineStore,
  options: NewAccount,
): { accountId: string; subAccountId: string | undefined } {
  const account: AccountState = {
    id: store.ids.next('acc'),
    primarySubAccountId: undefined,
    subAccounts: new Map(),
    positionMode: options.positionMode ?? 'ONE_WAY',
    maxOrderNotional: undefined,
    jwtRevision: 0,
    tradeSeq: 0,
    spotBalances: { ...(options.spotBalances ?? {}) },
    spotShape: options.spotShape ?? 'array',
    orders: [],
    positions: [],
    trades: [],
    makerFills: [],
    transfers: [],
    history: [],
  };
  store.accounts.set(account.id, account);
  if (options.subAccount === false) return { accountId: account.id, subAccountId: undefined };
  const { subAccountId } = createSubAccount(store, account.id, options.balances);
  return { accountId: account.id, subAccountId };
}

export function createSubAccount(
  store: EngineStore,
  accountId: string,
  balances: Record<string, string> = {},
): { subAccountId: string } {
  const account = store.account(accountId);
  const wallet = new Map([['USDT', '0']]);
  for (const [asset, amount] of Object.entries(balances)) {
    if (!isDecimalString(amount)) throw new TypeError(`balances.${asset} must be a decimal string`);
    wallet.set(asset, amount);
  }
  const sub: SubAccountState = {
    id: store.ids.next('sub'),
    accountId,
    marginType: 'CROSSED',
    leverage: new Map(),
    wallet,
  };
  account.subAccounts.set(sub.id, sub);
  store.subs.set(sub.id, sub);
  account.primarySubAccountId ??= sub.id;
  return { subAccountId: sub.id };
}

export function setMaxOrderNotional(store: EngineStore, accountId: string, value: string | undefined): void {
  if (value !== undefined && !isDecimalString(value)) throw new TypeError('maxOrderNotional must be a decimal string');
  store.account(accountId).maxOrderNotional = value;
}

/** Invalidates every JWT issued so far for the account (spec: revocation by a per-user revision). */
export function revokeJwts(store: EngineStore, accountId: string): void {
  store.account(accountId).jwtRevision++;
}
