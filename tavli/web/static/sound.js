/* The optional sound (off by default; the help dialog's setting, localStorage
 * "tavli.sound"): short tones made with WebAudio, no audio files — a rising pair of notes
 * when it becomes the player's turn, a soft click when a move is played. Shared by tavli
 * play's page and the online game page (a11y.js calls playSound). Exports SOUND (the
 * audio context and the count of tones played) and playSound.
 */

export const SOUND = {ctx: null, played: 0};

function soundOn() { return document.body.dataset.sound === "1"; }

/** Play the tone of `kind` ("turn" or "move") when the sound is on. */
export function playSound(kind) {
  if (!soundOn()) return;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  try {
    if (!SOUND.ctx) SOUND.ctx = new Ctx();
    const ctx = SOUND.ctx;
    if (ctx.state === "suspended") ctx.resume();
    const notes = kind === "turn" ? [[660, 0], [880, 0.12]] : [[220, 0]];
    const length = kind === "turn" ? 0.11 : 0.05;
    for (const [freq, at] of notes) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = kind === "turn" ? "sine" : "triangle";
      osc.frequency.value = freq;
      const t0 = ctx.currentTime + at;
      gain.gain.setValueAtTime(0.0001, t0);
      gain.gain.exponentialRampToValueAtTime(0.2, t0 + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0);
      osc.stop(t0 + length + 0.02);
    }
    SOUND.played += 1;
  } catch (e) { /* no sound: nothing else changes */ }
}
