// Sound at the table: off until the player turns it on (remembered in localStorage), and then only a
// few short sounds made here with the Web Audio API (no sound files): a roll, a placement, a bust, a
// scored dog, your turn. Nothing plays while the page is hidden (another tab, a minimised window);
// a tab the browser has muted silences Web Audio too. Which moments call for which sound is each
// game's (its renderer's optional sounds(prev, view)); "your turn" is the same for every game.
// window.SpotsSound.played lists every sound started, in order (what the tests count).
"use strict";

const SpotsSound = (() => {
  const KEY = "spots-sound";
  const played = [];
  let ctx = null;

  function on() {
    try { return localStorage.getItem(KEY) === "on"; } catch (e) { return false; }  // storage refused: off
  }

  function set(value) {
    try { localStorage.setItem(KEY, value ? "on" : "off"); } catch (e) { /* storage refused: not remembered */ }
  }

  function audio() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!ctx) ctx = new Context();
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
    return ctx;
  }

  // One note: an oscillator through a short attack-and-fade envelope, optionally sliding to `to` Hz.
  function tone(a, freq, at, length, type = "sine", level = 0.15, to = null) {
    const osc = a.createOscillator();
    const gain = a.createGain();
    osc.type = type;
    osc.frequency.setValueAtTime(freq, at);
    if (to) osc.frequency.exponentialRampToValueAtTime(to, at + length);
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(level, at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
    osc.connect(gain).connect(a.destination);
    osc.start(at);
    osc.stop(at + length + 0.02);
  }

  // A die knocking on the table: a few milliseconds of filtered noise.
  function knock(a, at, level) {
    const buffer = a.createBuffer(1, Math.ceil(a.sampleRate * 0.03), a.sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 3;
    const source = a.createBufferSource();
    const filter = a.createBiquadFilter();
    const gain = a.createGain();
    source.buffer = buffer;
    filter.type = "bandpass";
    filter.frequency.value = 1800 + Math.random() * 1400;
    gain.gain.value = level;
    source.connect(filter).connect(gain).connect(a.destination);
    source.start(at);
  }

  const SOUNDS = {
    roll: (a, t) => { for (let i = 0; i < 6; i++) knock(a, t + i * 0.05 + Math.random() * 0.02, 0.5 - i * 0.06); },
    place: (a, t) => { tone(a, 740, t, 0.09, "triangle", 0.2); tone(a, 1110, t + 0.02, 0.06, "sine", 0.06); },
    bust: (a, t) => { tone(a, 330, t, 0.55, "sawtooth", 0.08, 90); tone(a, 220, t + 0.05, 0.5, "square", 0.04, 70); },
    score: (a, t) => [523.3, 659.3, 784, 1046.5].forEach((f, i) => tone(a, f, t + i * 0.08, 0.22, "sine", 0.16)),
    turn: (a, t) => { tone(a, 880, t, 0.14, "sine", 0.14); tone(a, 1318.5, t + 0.14, 0.24, "sine", 0.12); },
  };

  /** Play a sound by name, when sound is on and the page is seen; true when it started. */
  function play(name) {
    if (!on() || document.hidden || !SOUNDS[name]) return false;
    const a = audio();
    if (!a) return false;
    SOUNDS[name](a, a.currentTime + 0.01);
    played.push(name);
    return true;
  }

  /** The table moved from `prev` to `view`: the game's sounds for it, and "your turn" when it became mine. */
  function heard(renderer, prev, view, me) {
    if (!prev || !view || view.moves <= prev.moves) return;  // the first view, or moves taken back: silence
    const names = renderer.sounds ? renderer.sounds(prev, view) : [];
    if (me !== null && view.to_move === me && prev.to_move !== me && !view.over) names.push("turn");
    names.forEach((name, i) => setTimeout(() => play(name), i * 160));
  }

  /** The table's toggle button: its pressed state follows the remembered choice. */
  function button(el) {
    const show = () => el.setAttribute("aria-pressed", on() ? "true" : "false");
    el.addEventListener("click", () => {
      set(!on());
      if (on()) audio();  // a click may start audio: the browser allows it only after a gesture
      show();
    });
    show();
  }

  return { play, heard, button, on, played, names: Object.keys(SOUNDS) };
})();
window.SpotsSound = SpotsSound;
