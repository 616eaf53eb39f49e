/**
 * Text a model or a tool could send to take over the terminal, as data. Each entry names what the sequence
 * would do if it reached the terminal; `visible` is text around it that must still be shown.
 */
export interface HostileSample {
  name: string;
  text: string;
  /** The harmful part: it must not appear in anything we print. */
  payload: string;
  visible: string[];
}

const ESC = "\u001b";
const BEL = "\u0007";
const ST = `${ESC}\\`;

export const HOSTILE_SAMPLES: HostileSample[] = [
  { name: "clear screen (CSI 2J)", text: `before${ESC}[2Jafter`, payload: `${ESC}[2J`, visible: ["before", "after"] },
  { name: "clear scrollback (CSI 3J) and home", text: `a${ESC}[3J${ESC}[Hb`, payload: `${ESC}[3J`, visible: ["a", "b"] },
  { name: "cursor up and erase line (rewrites what is shown)", text: `ok${ESC}[1A${ESC}[2Kfake`, payload: `${ESC}[1A`, visible: ["ok", "fake"] },
  { name: "private mode: hide cursor", text: `x${ESC}[?25ly`, payload: `${ESC}[?25l`, visible: ["x", "y"] },
  { name: "private mode: alternate screen", text: `x${ESC}[?1049hy`, payload: `${ESC}[?1049h`, visible: ["x", "y"] },
  { name: "model's own colour (SGR)", text: `${ESC}[31;5mblinking red${ESC}[0m`, payload: `${ESC}[31;5m`, visible: ["blinking red"] },
  { name: "8-bit CSI", text: `p\u009b2Jq`, payload: "\u009b2J", visible: ["p", "q"] },
  { name: "window title (OSC 0, BEL)", text: `t${ESC}]0;pwned${BEL}u`, payload: `${ESC}]0;pwned`, visible: ["t", "u"] },
  { name: "window title (OSC 2, ST)", text: `t${ESC}]2;pwned${ST}u`, payload: "pwned", visible: ["t", "u"] },
  { name: "hyperlink (OSC 8)", text: `${ESC}]8;;https://evil.example/${ST}click here${ESC}]8;;${ST}`, payload: "evil.example", visible: ["click here"] },
  { name: "clipboard write (OSC 52)", text: `c${ESC}]52;c;cm0gLXJmIH4=${BEL}d`, payload: "cm0gLXJmIH4=", visible: ["c", "d"] },
  { name: "palette change (OSC 4)", text: `${ESC}]4;1;rgb:00/00/00${BEL}text`, payload: "rgb:00/00/00", visible: ["text"] },
  { name: "8-bit OSC with 8-bit ST", text: `e\u009d0;pwned\u009cf`, payload: "pwned", visible: ["e", "f"] },
  { name: "DCS (tmux passthrough)", text: `g${ESC}Ptmux;${ESC}${ESC}]0;pwned${BEL}${ST}h`, payload: "pwned", visible: ["g", "h"] },
  { name: "APC", text: `i${ESC}_Gf=100;AAAA${ST}j`, payload: "Gf=100", visible: ["i", "j"] },
  { name: "PM", text: `k${ESC}^secret${ST}l`, payload: "secret", visible: ["k", "l"] },
  { name: "SOS", text: `m${ESC}Xsecret${ST}n`, payload: "secret", visible: ["m", "n"] },
  { name: "full reset (RIS)", text: `o${ESC}cp`, payload: `${ESC}c`, visible: ["o", "p"] },
  { name: "charset switch (ESC ( 0)", text: `q${ESC}(0r`, payload: `${ESC}(0`, visible: ["q", "r"] },
  { name: "save/restore cursor (ESC 7 / ESC 8)", text: `s${ESC}7t${ESC}8u`, payload: `${ESC}7`, visible: ["s", "t", "u"] },
  { name: "lone ESC at the end", text: `v${ESC}`, payload: ESC, visible: ["v"] },
  { name: "unterminated CSI (cut chunk)", text: `w${ESC}[2`, payload: ESC, visible: ["w"] },
  { name: "unterminated OSC (cut chunk)", text: `x${ESC}]0;tit`, payload: ESC, visible: ["x"] },
  { name: "bell", text: `y${BEL}${BEL}z`, payload: BEL, visible: ["y", "z"] },
  { name: "C1 controls (NEL, IND, RI, CSI)", text: "a\u0085b\u0084c\u008dd", payload: "\u008d", visible: ["a", "b", "c", "d"] },
  { name: "backspaces hiding text", text: "rm -rf ~\b\b\b\b\b\b\b\bls      ", payload: "\b", visible: ["rm -rf ~", "ls"] },
  { name: "carriage return hiding text", text: "rm -rf ~\rls", payload: "\r", visible: ["rm -rf ~", "ls"] },
  { name: "other C0 controls and DEL", text: "1\u0000\u0001\u000b\u000c\u000e\u001a\u007f2", payload: "\u000e", visible: ["1", "2"] },
];

/** What may remain of a neutralised text: no ESC, no C1, no C0 but newline and tab. */
export const CONTROL_LEFT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
