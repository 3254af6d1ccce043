/*
 * course-a11y: what a screen reader needs from the course's dashboards (issue 42), that
 * ipywidgets 8.1.7 does not give. Its sliders (noUiSlider) have no accessible name, speak a
 * raw or log-scale number, and stay in the Tab order when disabled; its HTML widget has no
 * role. Inside an element of class `course-dashboard` only (helpers/widgets/_base.py), this
 * plugin keeps, on every change of the page:
 *   - every slider handle named by its label's title (the control's `tooltip`, set by the
 *     dashboard from the notebook's notation) or else its label, its aria-valuetext the
 *     readout's text (the real value of a log slider, the option of a selection slider,
 *     with the unit a `course-unit-<word>` class gives), disabled handles aria-disabled and
 *     out of the Tab order;
 *   - every slider's editable readout a named textbox (out of the Tab order when disabled);
 *   - every dropdown, text box and checkbox named by its label's title;
 *   - a details button (class `course-details-toggle`) its aria-expanded and aria-controls,
 *     the panel it opens (class `course-details`) a named region;
 *   - the element of class `course-status` a polite live region (role=status), present
 *     from the dashboard's first render, whose text the kernel rewrites on every redraw;
 *   - the dashboard's image (an ipywidgets Image, which has no alt, whose source the kernel
 *     replaces in place on every redraw) its text alternative: the text of the element of
 *     class `course-alt`, which the kernel rewrites just before the image, copied into the
 *     image's alt; that element is then hidden from the accessibility tree (read once).
 * Written by hand as a module-federation container (JupyterLab loads `window._JUPYTERLAB[name]`
 * and calls init() and get('./extension')): no build step, no dependency.
 */
(function () {
  'use strict';
  const DASHBOARD = 'course-dashboard';

  function setAttr(el, name, value) {
    if (value === null) {
      if (el.hasAttribute(name)) el.removeAttribute(name);
    } else if (el.getAttribute(name) !== value) {
      el.setAttribute(name, value);
    }
  }

  function labelOf(box) {
    return box.querySelector(':scope > .widget-label, :scope > label');
  }

  function nameOf(box) {
    const label = labelOf(box);
    const title = label && label.getAttribute('title');
    return ((title && title.trim()) || (label ? label.textContent.trim() : '')).trim();
  }

  function unitOf(box) {
    const cls = [...box.classList].find((c) => c.startsWith('course-unit-'));
    return cls ? cls.slice('course-unit-'.length).replace(/-/g, ' ') : '';
  }

  function syncSlider(box) {
    const target = box.querySelector('.noUi-target');
    if (!target) return;
    const name = nameOf(box);
    const unit = unitOf(box);
    const disabled = target.hasAttribute('disabled');
    const readout = box.querySelector('.widget-readout');
    const shown = readout ? readout.textContent.trim() : '';
    const handles = [...target.querySelectorAll('.noUi-handle')];
    // noUiSlider writes aria-valuenow rounded to one decimal ("0.3" for 0.333 and 0.340):
    // the slider's own numbers at full precision (a log slider's exponent, a selection
    // slider's index; its aria-valuetext says the value)
    const api = target.noUiSlider;
    const exact = (x) => String(Number(Number(x).toPrecision(12)));
    let now = [];
    if (api) {
      const got = api.get(true);
      now = (Array.isArray(got) ? got : [got]).map(exact);
    }
    handles.forEach((handle, i) => {
      if (api && now[i] !== undefined) {
        setAttr(handle, 'aria-valuenow', now[i]);
        setAttr(handle, 'aria-valuemin', exact(api.options.range.min));
        setAttr(handle, 'aria-valuemax', exact(api.options.range.max));
      }
      let label = name;
      if (handles.length === 2) label = `${name}, ${i === 0 ? 'lower' : 'upper'} end`;
      setAttr(handle, 'aria-label', label || null);
      if (shown) setAttr(handle, 'aria-valuetext', unit ? `${shown} ${unit}` : shown);
      setAttr(handle, 'aria-disabled', disabled ? 'true' : null);
      setAttr(handle, 'tabindex', disabled ? '-1' : '0');
    });
    if (readout) {
      setAttr(readout, 'role', 'textbox');
      setAttr(readout, 'aria-label', name ? `${name} (type a value)` : null);
      setAttr(readout, 'aria-disabled', disabled ? 'true' : null);
      setAttr(readout, 'tabindex', disabled ? '-1' : null);
    }
  }

  function syncField(box) {
    const field = box.querySelector('select, input, textarea');
    if (!field) return;
    const name = nameOf(box);
    if (name) setAttr(field, 'aria-label', name);
  }

  function syncDashboard(root) {
    root.querySelectorAll('.widget-slider').forEach(syncSlider);
    root.querySelectorAll('.widget-dropdown, .widget-text, .widget-inline-hbox').forEach((box) => {
      if (!box.classList.contains('widget-slider')) syncField(box);
    });
    // a figure wider than a narrow line scrolls sideways: reachable by Tab, so that the
    // arrow keys scroll it (WCAG 2.1.1), and named
    root.querySelectorAll('.widget-output .jp-OutputArea-output').forEach((area) => {
      const scrolls = area.scrollWidth > area.clientWidth + 1;
      setAttr(area, 'tabindex', scrolls ? '0' : null);
      setAttr(area, 'role', scrolls ? 'region' : null);
      setAttr(area, 'aria-label', scrolls ? 'figure, scrolls sideways' : null);
    });
    const holder = root.querySelector('.course-alt');
    const image = root.querySelector('.widget-output img');
    if (holder && image) {
      setAttr(image, 'alt', holder.textContent.trim());
      setAttr(holder, 'aria-hidden', 'true');
    }
    root.querySelectorAll('.course-status').forEach((status) => {
      setAttr(status, 'role', 'status');
      setAttr(status, 'aria-live', 'polite');
      setAttr(status, 'aria-atomic', 'true');
    });
    // a dashboard's details button (helpers/widgets/_base.py, `details=`): ipywidgets' toggle
    // button only toggles a class; its state is said as aria-expanded, and the panel it opens
    // is a named region the button controls
    const panel = root.querySelector('.course-details');
    root.querySelectorAll('.course-details-toggle').forEach((button) => {
      if (!panel) return;
      if (!panel.id) panel.id = `course-details-${++detailsCount}`;
      setAttr(button, 'aria-expanded', button.classList.contains('mod-active') ? 'true' : 'false');
      setAttr(button, 'aria-controls', panel.id);
      setAttr(panel, 'role', 'region');
      setAttr(panel, 'aria-label', button.textContent.trim().replace(/^(Show|Hide) /, ''));
    });
  }

  let detailsCount = 0;

  function dashboardsIn(mutation, found) {
    const node = mutation.target.nodeType === 1 ? mutation.target : mutation.target.parentElement;
    const root = node && node.closest(`.${DASHBOARD}`);
    if (root) found.add(root);
    mutation.addedNodes.forEach((added) => {
      if (added.nodeType !== 1) return;
      if (added.classList.contains(DASHBOARD)) found.add(added);
      added.querySelectorAll(`.${DASHBOARD}`).forEach((r) => found.add(r));
    });
  }

  function activate() {
    const observer = new MutationObserver((mutations) => {
      const found = new Set();
      mutations.forEach((m) => dashboardsIn(m, found));
      found.forEach(syncDashboard);
    });
    observer.observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: [
        'disabled', 'aria-valuetext', 'aria-valuenow', 'tabindex', 'title', 'class', 'src'],
    });
    // a narrower window can make a figure scroll: look again
    window.addEventListener('resize', () => {
      document.querySelectorAll(`.${DASHBOARD}`).forEach(syncDashboard);
    });
    document.querySelectorAll(`.${DASHBOARD}`).forEach(syncDashboard);
  }

  const plugin = {
    id: 'course-a11y:dashboards',
    description: 'Names, spoken values and a live region for the course dashboards.',
    autoStart: true,
    activate: activate,
  };

  const modules = {
    './extension': () => ({ __esModule: true, default: [plugin] }),
  };

  window._JUPYTERLAB = window._JUPYTERLAB || {};
  window._JUPYTERLAB['course-a11y'] = {
    get: (module) => {
      if (!(module in modules)) return Promise.reject(new Error(`course-a11y has no ${module}`));
      return Promise.resolve(modules[module]);
    },
    init: () => {},
  };
})();
