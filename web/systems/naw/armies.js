// Napoleon at War's armies panel: each army's strength points lost against its demoralization
// level (17.0).

import { h } from '../../js/util.js';
import { caseLink } from '../../js/toast.js';
import { card } from '../../js/views/sidebar.js';
import { sideColour } from './index.js';

/** @param {import('../../js/game.js').Game} game */
export function armiesCard(game) {
  const v = game.v;
  const body = v.demoralization.map((d) => {
    const frac = d.level ? Math.min(1, d.losses / d.level) : 0;
    const sc = sideColour(d.side);
    const broken = d.losses >= d.level;
    return h('div', { class: `army${broken ? ' broken' : ''}` },
      h('div', { class: 'army-head' }, h('span', { class: 'swatch', style: `background:${sc.fill}`, 'aria-hidden': 'true' }), h('b', {}, d.army),
        h('span', { class: 'army-nums' }, `${d.losses} of ${d.level} lost`)),
      h('div', { class: 'bar', role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': d.level, 'aria-valuenow': d.losses, 'aria-label': `${d.army} demoralization: ${d.losses} of ${d.level} strength points lost` },
        h('div', { class: 'bar-fill', style: `width:${(frac * 100).toFixed(1)}%;--c:${sc.fill}` })),
      h('div', { class: 'small muted' }, broken ? 'Demoralized (17.0)' : `${d.level - d.losses} more to demoralization`));
  });
  return card(game, 'armies', 'Armies', [h('p', { class: 'small muted' }, 'Strength points lost against the demoralization level ', caseLink('17.0'), '.'), ...body]);
}
