/** Deposits and withdrawals of the primary sub-account: PENDING, then settled `TRANSFER_SETTLE_MS` later. */

import { decAdd, decCmp, decSign, decSub, isDecimalString } from '../../_internal/decimal.ts';
import { TRANSFER_SETTLE_MS } from './constants.ts';
import { available } from './margin.ts';
import type { AccountState, TransferState } from './state.ts';
import type { EngineStore } from './store.ts';

export function transfer(
  store: EngineStore,
  accountId: string,
  kind: 'deposit' | 'withdraw',
  asset: string,
  amount: string,
  fail = false,
): TransferState {
  const account = store.account(accountId);
  if (!isDecimalString(amount) || decSign(amount) <= 0)
    throw new RangeError('amount must be a positive decimal string');
  const sub = store.primarySub(account);
  if (!sub) throw new TypeError(`Account ${accountId} has no sub-account`);
  if (kind === 'withdraw') {
    const balance = sub.wallet.get(asset) ?? '0';
    const free = asset === 'USDT' ? available(store, sub) : balance;
    if (decCmp(amount, free) > 0) throw new RangeError(`Insufficient ${asset} to withdraw ${amount} (free ${free})`);
    sub.wallet.set(asset, decSub(balance, amount));
  }
  const now = store.now();
  const transfer: TransferState = {
    id: store.ids.next('tr'),
    asset,
    amount,
    transferType: kind === 'deposit' ? 1 : 2,
    status: 'PENDING',
    venueTransferId: String(store.ids.nextNumber('venueTransfer', 5_000_001)),
    createdAt: now,
    updatedAt: now,
    settleAt: now + TRANSFER_SETTLE_MS,
    finalStatus: fail ? 'FAILED' : 'SUCCESS',
  };
  account.transfers.push(transfer);
  return transfer;
}

/** Settles every transfer of the account that is due: credits deposits, refunds failed withdrawals. */
export function settleTransfers(account: AccountState, now: number): void {
  for (const transfer of account.transfers) {
    if (transfer.status !== 'PENDING' || now < transfer.settleAt) continue;
    transfer.status = transfer.finalStatus;
    transfer.updatedAt = transfer.settleAt;
    const sub = account.primarySubAccountId ? account.subAccounts.get(account.primarySubAccountId) : undefined;
    if (!sub) continue;
    const balance = sub.wallet.get(transfer.asset) ?? '0';
    if (transfer.transferType === 1 && transfer.status === 'SUCCESS') {
      sub.wallet.set(transfer.asset, decAdd(balance, transfer.amount));
    } else if (transfer.transferType === 2 && transfer.status === 'FAILED') {
      sub.wallet.set(transfer.asset, decAdd(balance, transfer.amount)); // refund
    }
  }
}
