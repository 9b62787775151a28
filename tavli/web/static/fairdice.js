/* Provably fair dice, checked in the browser: the computation of tavli/online/fairdice.py
 * (docs/server.md, "Provably fair dice") with WebCrypto. Roll n of a game or match is
 * HMAC-SHA256(key = server seed, "tavli-dice/1" ‖ len ‖ white's seed ‖ len ‖ black's seed
 * ‖ n (8 bytes) ‖ block (4 bytes)); the first digest byte b < 252 gives v = b mod 36 and
 * the dice (v div 6 + 1, v mod 6 + 1).
 *
 * The dice of a record are read in the order they were thrown: per game, the opening
 * throws (white's die first), each turn's dice except the first turn's after an opening
 * throw when the record's rules say opening_reroll is off (that turn plays the opening
 * dice), a resignation's unplayed roll, the dice thrown and not played (docs/formats.md).
 * Exports verifyDice (the online game page's Verify dice button).
 */
import {t} from "./i18n.js";

const FAIR_LABEL = new TextEncoder().encode("tavli-dice/1");

function hexToBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

function bytesToHex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function sha256Hex(bytes) {
  return bytesToHex(await crypto.subtle.digest("SHA-256", bytes));
}

/** The HMAC message of roll n, block `block`. */
function diceMessage(seeds, n, block) {
  const parts = [FAIR_LABEL];
  for (const side of ["white", "black"]) {
    const raw = new TextEncoder().encode(seeds[side]);
    const len = new Uint8Array([raw.length >> 8, raw.length & 255]);
    parts.push(len, raw);
  }
  const tail = new DataView(new ArrayBuffer(12));
  tail.setBigUint64(0, BigInt(n));
  tail.setUint32(8, block);
  parts.push(new Uint8Array(tail.buffer));
  const total = parts.reduce((k, p) => k + p.length, 0);
  const msg = new Uint8Array(total);
  let at = 0;
  for (const p of parts) { msg.set(p, at); at += p.length; }
  return msg;
}

/** Roll n (from 0): [die, die]. `key`: the server seed as an HMAC CryptoKey. */
async function rollPair(key, seeds, n) {
  for (let block = 0; ; block++) {
    const digest = new Uint8Array(await crypto.subtle.sign("HMAC", key,
                                                           diceMessage(seeds, n, block)));
    for (const b of digest) {
      if (b < 252) {
        const v = b % 36;
        return [Math.floor(v / 6) + 1, (v % 6) + 1];
      }
    }
  }
}

/** Every die of a record, in the order thrown. */
function recordDice(record) {
  const out = [];
  for (const gd of record.games || []) {
    let opened = false, firstTurn = true;
    for (const ev of gd.events || []) {
      if ("opening" in ev) {
        out.push(...ev.opening);
        opened = true;
      } else if ("dice" in ev) {
        const reroll = !(gd.rules && gd.rules.opening_reroll === false);
        if (!(opened && firstTurn) || reroll) out.push(...ev.dice);
        firstTurn = false;
      } else if ("resign" in ev && ev.rolled) {
        out.push(...ev.rolled);
      }
    }
    if (gd.pending_dice) out.push(...gd.pending_dice);
  }
  return out;
}

/** Check a record's dice: {rolls, problems} (no problem: every die is the seeds').
 * `expect` (optional): {commitment, seed, side}, what this browser was shown and sent. */
export async function verifyDice(record, expect = {}) {
  const proof = record && record.fair_dice;
  if (!proof) return {rolls: 0, problems: [t("fd.no_proof")]};
  if (!proof.server_seed) {
    return {rolls: 0, problems: [t("fd.not_revealed")]};
  }
  const problems = [];
  const seedBytes = hexToBytes(proof.server_seed);
  const hash = await sha256Hex(seedBytes);
  if (hash !== proof.commitment) {
    problems.push(t("fd.seed_commitment"));
  }
  if (expect.commitment && expect.commitment !== proof.commitment) {
    problems.push(t("fd.commitment_changed"));
  }
  if (expect.seed && expect.side && proof.client_seeds[expect.side] !== expect.seed) {
    problems.push(t("fd.your_seed"));
  }
  const key = await crypto.subtle.importKey("raw", seedBytes, {name: "HMAC", hash: "SHA-256"},
                                            false, ["sign"]);
  const dice = recordDice(record);
  if (dice.length % 2) problems.push(t("fd.odd"));
  const rolls = Math.floor(dice.length / 2);
  for (let n = 0; n < rolls; n++) {
    const want = await rollPair(key, proof.client_seeds, n);
    const got = [dice[2 * n], dice[2 * n + 1]];
    if (got[0] !== want[0] || got[1] !== want[1]) {
      problems.push(t("fd.roll", {n: n + 1, got: got.join("-"), want: want.join("-")}));
    }
  }
  return {rolls, problems};
}
