// The casino's sounds: chips placed, cards dealt and turned, the countdown's last seconds,
// the betting calls and a win. Off until the player turns it on (the header's button,
// remembered per player by prefs.js). Browsers let a page make sound only after a gesture,
// so the one AudioContext is made on the first click or key after sound is on; the files
// (web/sounds/, made by scripts/make_sounds.py) are then fetched and decoded once.
//
// A page in the background is silent: a sound asked for then is dropped, never kept to
// play when the player comes back, and what was playing stops.
//
// Tests read what played from `window.__baccaraSoundLog` when they set it to an array.

import { onPreferences, preference, setPreference } from "./prefs.js";

export const SOUNDS = ["chip", "card", "flip", "tick", "bets-open", "bets-closed", "win"];

const GAP = 0.07; // seconds between two sounds asked for at once (a batch of cards)
const BACKLOG = 0.5; // a sound that would wait longer than this behind others is dropped
const COUNTDOWN = 5; // a tick for each of the countdown's last seconds

let context = null;
let volume = null; // the GainNode every sound goes through
const buffers = new Map();
const playing = new Set();
let nextFree = 0;
const ticked = new Map(); // each countdown (a table's round and phase): the second last ticked

function visible() {
  return document.visibilityState === "visible" && !document.hidden;
}

function gainOf(percent) {
  return (percent / 100) ** 2; // heard as even steps of the slider
}

async function loadAll() {
  await Promise.all(SOUNDS.map(async (name) => {
    try {
      const response = await fetch(`/static/sounds/${name}.wav`);
      if (!response.ok) return;
      buffers.set(name, await context.decodeAudioData(await response.arrayBuffer()));
    } catch {
      /* this one stays silent */
    }
  }));
  const button = document.getElementById("sound");
  if (button) button.dataset.ready = "true"; // the sounds are decoded: they play from now on
}

/** Make the AudioContext, inside a user gesture (the browser allows it to sound then). */
function wake() {
  if (!preference("sound")) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  if (!context) {
    context = new Context();
    volume = context.createGain();
    volume.gain.value = gainOf(preference("volume"));
    volume.connect(context.destination);
    loadAll();
  }
  if (context.state === "suspended" && visible()) context.resume().catch(() => {});
}

function silence() {
  for (const source of playing) {
    try {
      source.stop();
    } catch {
      /* ended already */
    }
  }
  playing.clear();
  nextFree = 0;
}

/** Play one of {@link SOUNDS} now (or a moment later, behind others asked for at once). */
export function play(name) {
  if (!preference("sound") || !visible() || !context || context.state !== "running") return;
  const buffer = buffers.get(name);
  if (!buffer) return;
  const now = context.currentTime;
  const start = Math.max(now, nextFree);
  if (start - now > BACKLOG) return;
  nextFree = start + GAP;
  const source = context.createBufferSource();
  source.buffer = buffer;
  source.connect(volume);
  source.onended = () => playing.delete(source);
  playing.add(source);
  source.start(start);
  if (Array.isArray(window.__baccaraSoundLog)) window.__baccaraSoundLog.push(name);
}

/** A tick for each of a countdown's last seconds: call it as often as the countdown is
 * drawn, with what names this countdown (a round and its phase) and the seconds left. */
export function countdown(which, secondsLeft) {
  const second = Math.ceil(secondsLeft);
  if (second < 1 || second > COUNTDOWN) return;
  if (ticked.get(which) === second) return;
  if (ticked.size > 50) ticked.clear(); // rounds long over
  ticked.set(which, second);
  play("tick");
}

/** The player's own result of a round: the flourish when it is a net win. */
export function result(netCents) {
  if (netCents > 0) play("win");
}

// --- the header's button and slider -----------------------------------------------------

function drawControls() {
  const button = document.getElementById("sound");
  const slider = document.getElementById("volume");
  if (!button || !slider) return;
  const on = preference("sound");
  button.setAttribute("aria-pressed", String(on));
  button.dataset.on = String(on);
  slider.value = String(preference("volume"));
  slider.disabled = !on;
}

/** Wire the header's sound button and volume slider (once, when the page starts). */
export function startSound() {
  const button = document.getElementById("sound");
  const slider = document.getElementById("volume");
  if (button) {
    button.addEventListener("click", () => {
      const on = !preference("sound");
      setPreference("sound", on);
      if (on) wake(); // this click is the gesture
    });
  }
  if (slider) {
    slider.addEventListener("input", () => setPreference("volume", Number(slider.value)));
  }
  drawControls();
}

onPreferences((now) => {
  if (volume) volume.gain.value = gainOf(now.volume);
  if (!now.sound) {
    silence();
    if (context && context.state === "running") context.suspend().catch(() => {}); // the device let go
  }
  drawControls();
});

/** Any gesture but one on the sound button, whose click says itself whether sound is wanted. */
function gesture(event) {
  if (event.target instanceof Element && event.target.closest("#sound")) return;
  wake();
}

for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, gesture, { capture: true });

document.addEventListener("visibilitychange", () => {
  if (!context) return;
  if (visible()) {
    if (preference("sound")) context.resume().catch(() => {});
  } else {
    silence();
    context.suspend().catch(() => {});
  }
});
