import type { BalanceHistory } from '@coffer/contracts/wallet';
import { Trans, useLingui } from '@lingui/react/macro';
import { VisuallyHidden } from '@mantine/core';
import { type PointerEvent, useId, useMemo, useState } from 'react';
import { dateTimeFormat, formatUtcDay } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import classes from './balance-chart.module.css';
import {
  acrossPercent,
  dayLabels,
  heightPercent,
  stepPath,
  valueAxis,
} from './balance-chart-geometry.ts';

/** The points are UTC days (YYYY-MM-DD): labelled in UTC, so no day shifts by a time zone. */
const dayLabelFormatOptions: Intl.DateTimeFormatOptions = {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
};

type Day = { date: string; balanceMinor: bigint; xPercent: number; yPercent: number };

function useChartDays(history: BalanceHistory) {
  return useMemo(() => {
    const balancesMinor = history.points.map((point) => point.balanceMinor);
    let highestMinor = 0n;
    for (const balanceMinor of balancesMinor) {
      if (balanceMinor > highestMinor) highestMinor = balanceMinor;
    }
    const axis = valueAxis(highestMinor);
    const days: Day[] = history.points.map((point, index) => {
      const balanceMinor = balancesMinor[index] ?? 0n;
      return {
        date: point.date,
        balanceMinor,
        xPercent: acrossPercent(index, history.points.length),
        yPercent: heightPercent(balanceMinor, axis.topMinor),
      };
    });
    return { axis, days };
  }, [history]);
}

/** The plot's lines, in a 100 × 100 box stretched to the plot; strokes keep their width. */
function Plot({ days, gridPercents }: { days: Day[]; gridPercents: number[] }) {
  const { t } = useLingui();
  const fillId = `balance-fill-${useId().replace(/[^\w-]/g, '')}`;
  const heights = days.map((day) => day.yPercent);
  return (
    <svg
      className={classes.svg}
      viewBox="0 0 100 100"
      preserveAspectRatio="none"
      role="img"
      aria-label={t`Chart of the balance at the end of each day`}
    >
      <defs>
        <linearGradient id={fillId} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0%" className={classes.fillTop} />
          <stop offset="100%" className={classes.fillBottom} />
        </linearGradient>
      </defs>
      {gridPercents.map((xPercent) => (
        <line
          key={xPercent}
          className={classes.gridLine}
          x1={xPercent}
          x2={xPercent}
          y1={0}
          y2={100}
          vectorEffect="non-scaling-stroke"
        />
      ))}
      <path d={stepPath(heights, true)} fill={`url(#${fillId})`} />
      <path
        className={classes.line}
        d={stepPath(heights, false)}
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
}

/** The day under the pointer or keyboard cursor: a line, a dot and the day's balance. */
function DayTooltip({ day, currency }: { day: Day; currency: string }) {
  const isOnRightHalf = day.xPercent > 50;
  const balance = formatAmountMinor(day.balanceMinor, currency);
  return (
    <div aria-hidden>
      <svg className={classes.svg} viewBox="0 0 100 100" preserveAspectRatio="none" aria-hidden>
        <line
          className={classes.cursor}
          x1={day.xPercent}
          x2={day.xPercent}
          y1={0}
          y2={100}
          vectorEffect="non-scaling-stroke"
        />
      </svg>
      <span
        className={classes.dot}
        style={{ left: `${day.xPercent}%`, bottom: `${day.yPercent}%` }}
      />
      <div
        className={classes.tooltip}
        style={{
          left: `${day.xPercent}%`,
          transform: isOnRightHalf ? 'translateX(calc(-100% - 12px))' : 'translateX(12px)',
        }}
      >
        <div>{formatUtcDay(day.date)}</div>
        <strong>
          <Trans>Balance {balance}</Trans>
        </strong>
      </div>
    </div>
  );
}

/**
 * The 30-day balance as a stepped area chart, drawn as SVG. With amounts shown, the value
 * axis has labels, the pointer or the arrow keys show a day's balance, and a hidden table
 * gives screen readers every day at once; with amounts hidden the chart keeps only its
 * shape.
 */
export function BalanceChart({
  history,
  areAmountsShown,
}: {
  history: BalanceHistory;
  areAmountsShown: boolean;
}) {
  const { t } = useLingui();
  const { axis, days } = useChartDays(history);
  // The day under the pointer, else the one the keyboard chose while the chart has focus.
  const [pointerIndex, setPointerIndex] = useState<number | null>(null);
  const [keyboardIndex, setKeyboardIndex] = useState<number | null>(null);
  const labels = dayLabels(days.length);
  const lastIndex = days.length - 1;
  const activeIndex = pointerIndex ?? keyboardIndex;
  const activeDay = activeIndex === null ? undefined : days[activeIndex];
  const cursorDay = days[keyboardIndex ?? lastIndex];

  const showDayAtPointer = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const fraction = (event.clientX - box.left) / Math.max(1, box.width);
    setPointerIndex(Math.min(lastIndex, Math.max(0, Math.round(fraction * lastIndex))));
  };
  const plot = (
    <Plot
      days={days}
      gridPercents={labels.map((label) => acrossPercent(label.index, days.length))}
    />
  );

  // Days run left to right in every language: a chart is a picture, and its pointer and
  // labels are placed from the left.
  return (
    <div className={classes.chart} dir="ltr">
      {areAmountsShown ? (
        <>
          <div className={classes.valueAxis} aria-hidden>
            {axis.ticksMinor.map((tickMinor) => (
              <span
                key={String(tickMinor)}
                className={classes.valueLabel}
                style={{ top: `${100 - heightPercent(tickMinor, axis.topMinor)}%` }}
              >
                {formatAmountMinor(tickMinor, history.currency)}
              </span>
            ))}
          </div>
          <div
            className={classes.plot}
            onPointerMove={showDayAtPointer}
            onPointerLeave={() => setPointerIndex(null)}
          >
            {plot}
            {/* The keyboard's way through the days: a range input, so the arrow keys, Home
                and End work as everywhere and screen readers say each day's balance. */}
            <input
              type="range"
              className={classes.dayCursor}
              min={0}
              max={lastIndex}
              step={1}
              value={keyboardIndex ?? lastIndex}
              aria-label={t`Balance by day`}
              aria-valuetext={
                cursorDay &&
                `${formatUtcDay(cursorDay.date)}: ${formatAmountMinor(cursorDay.balanceMinor, history.currency)}`
              }
              onChange={(event) => setKeyboardIndex(Number(event.currentTarget.value))}
              onFocus={() => setKeyboardIndex((index) => index ?? lastIndex)}
              onBlur={() => setKeyboardIndex(null)}
            />
            {activeDay && <DayTooltip day={activeDay} currency={history.currency} />}
          </div>
        </>
      ) : (
        <div className={classes.plot}>{plot}</div>
      )}
      <div className={classes.dayAxis} aria-hidden>
        {labels.map(({ index, keptAtEvery }) => {
          const day = days[index];
          if (!day) return null;
          // The end labels stay inside the plot; the others are centred on their day.
          const shiftPercent = day.xPercent === 0 ? 0 : day.xPercent === 100 ? -100 : -50;
          return (
            <span
              key={day.date}
              className={classes.dayLabel}
              style={{ left: `${day.xPercent}%`, transform: `translateX(${shiftPercent}%)` }}
              data-kept-at-every={keptAtEvery}
            >
              {dateTimeFormat(dayLabelFormatOptions).format(new Date(`${day.date}T00:00:00Z`))}
            </span>
          );
        })}
      </div>
      {areAmountsShown && (
        <VisuallyHidden>
          <table>
            <caption>
              <Trans>Balance at the end of each day</Trans>
            </caption>
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Day</Trans>
                </th>
                <th scope="col">
                  <Trans>Balance</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((day) => (
                <tr key={day.date}>
                  <td>{formatUtcDay(day.date)}</td>
                  <td>{formatAmountMinor(day.balanceMinor, history.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </VisuallyHidden>
      )}
    </div>
  );
}
